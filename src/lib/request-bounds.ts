// Limits that bound the work one request can cause, whatever its shape (docs/api-behaviour.md,
// "Bounded work per request").

/** At most this many `details` in an error answer; the envelope says when more were found. */
export const MAX_DETAILS = 100;

/** Deepest nesting of arrays and objects a JSON body may have (the outermost object is level 1). */
export const MAX_JSON_DEPTH = 32;

/**
 * Most values a JSON body may hold (object members and array items, counted at every depth).
 * What a JSON body costs to parse and check grows with its values, not its bytes: a body of
 * long strings is cheap, one of many tiny values is not. No body the API takes holds more than
 * a few hundred.
 */
export const MAX_JSON_VALUES = 10_000;

/** Largest JSON body of an operation that carries no post HTML (categories, webhooks, publish…). */
export const SMALL_JSON_BODY_BYTES = 64 * 1024;

/**
 * What is wrong with the shape of a JSON text, if anything: nesting deeper than `maxDepth` or
 * more than `maxValues` values. One pass over the text, no recursion and no allocation, so it
 * runs before the parser and every recursive check. Brackets and commas inside strings do not
 * count; malformed text is left for the parser to refuse.
 */
export function jsonShapeProblem(text: string, maxDepth: number, maxValues: number): 'depth' | 'values' | null {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (c === 0x2c) {
      if (++values > maxValues) return 'values';
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return null;
}
