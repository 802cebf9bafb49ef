// Limits that bound the work one request can cause, whatever its shape (docs/api-behaviour.md,
// "Bounded work per request").

/** At most this many `details` in an error answer; the envelope says when more were found. */
export const MAX_DETAILS = 100;

/** Deepest nesting of arrays and objects a JSON body may have (the outermost object is level 1). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether the JSON text nests arrays and objects deeper than `max`. One pass over the text,
 * no recursion and no allocation, so it runs before the parser and every recursive check.
 * Brackets inside strings do not count; malformed text is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
