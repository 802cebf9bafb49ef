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
 * Watches the shape of a JSON text as it arrives, chunk by chunk: nesting deeper than
 * `maxDepth`, or more than `maxValues` values. Structural characters are ASCII, so the bytes of
 * UTF-8 text can be read as they come (a multi-byte character never holds one). No recursion and
 * no allocation: it runs while the body is received, before the parser and every recursive
 * check, and stops the body at the first byte past a limit. Brackets and commas inside strings
 * do not count; malformed text is left for the parser to refuse.
 */
export class JsonShapeWatch {
  private depth = 0;
  private values = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly maxDepth: number,
    private readonly maxValues: number,
  ) {}

  /** The limit the text passed with this chunk, if any. */
  feed(chunk: Uint8Array): 'depth' | 'values' | null {
    let { depth, values, inString, escaped } = this;
    try {
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 0x5c) escaped = true;
          else if (c === 0x22) inString = false;
        } else if (c === 0x22) inString = true;
        else if (c === 0x5b || c === 0x7b) {
          if (++depth > this.maxDepth) return 'depth';
          if (++values > this.maxValues) return 'values';
        } else if (c === 0x2c) {
          if (++values > this.maxValues) return 'values';
        } else if (c === 0x5d || c === 0x7d) depth--;
      }
      return null;
    } finally {
      Object.assign(this, { depth, values, inString, escaped });
    }
  }
}
