// Query strings are parsed by fast-querystring (Fastify's own default), which leaves a value
// whose percent-escapes are not valid UTF-8 (`%FF`, an encoded lone surrogate `%ED%A0%80`) as
// its raw text. Such a value is not text at all, so the fields carrying one are noted on the
// parsed object (out of sight of the schema) and the validator refuses them by name.
import { parse } from 'fast-querystring';

/** Names of query fields whose value or name is not valid UTF-8 once percent-decoded. */
export const INVALID_QUERY_TEXT = Symbol('query fields that are not valid UTF-8');

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const ESCAPE = /%[0-9A-Fa-f]{2}/;

/** Whether the percent-escapes of a raw query component spell invalid UTF-8. */
function hasInvalidUtf8(raw: string): boolean {
  if (!ESCAPE.test(raw)) return false;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === '%' ? raw.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      // A stray '%' stays literal, as the parser keeps it.
      bytes.push(...Buffer.from(raw[i] === '+' ? ' ' : raw[i], 'utf8'));
    }
  }
  try {
    strictUtf8.decode(Uint8Array.from(bytes));
    return false;
  } catch {
    return true;
  }
}

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

export function parseQueryString(raw: string): Record<string, unknown> {
  const query: Record<string, unknown> = raw.length === 0 ? {} : parse(raw);
  const invalid: string[] = [];
  for (const component of raw.split('&')) {
    const eq = component.indexOf('=');
    const name = eq === -1 ? component : component.slice(0, eq);
    const value = eq === -1 ? '' : component.slice(eq + 1);
    if (hasInvalidUtf8(name) || hasInvalidUtf8(value)) invalid.push(decodedName(name));
  }
  if (invalid.length > 0) Object.defineProperty(query, INVALID_QUERY_TEXT, { value: invalid, enumerable: false });
  return query;
}
