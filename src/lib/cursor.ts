// Opaque, signed page cursors carrying the query conditions (docs/api-behaviour.md, "Cursors").
// A cursor = base64url(JSON {h: holder fingerprint, c: conditions fingerprint, p: position}) + "." + HMAC.
// The holder is who the cursor was issued to (a store and a key application): a cursor is a
// position in that caller's listing, and anyone else presenting it gets a 422.
import { ApiError, detail } from './api-error.js';
import { canonicalJson } from './canonical-json.js';
import { hmacBase64Url, safeEqual, sha256Hex } from './crypto.js';

export type CursorPosition = Array<string | number>;

export type CursorReading =
  { kind: 'first-page' } | { kind: 'continue'; position: CursorPosition } | { kind: 'invalid' };

const MAX_CURSOR_LENGTH = 512;

function fingerprint(scope: string, conditions: Record<string, unknown>): string {
  return sha256Hex(`${scope}|${canonicalJson(conditions)}`).slice(0, 16);
}

/** Who a cursor is issued to: the store listed and the application of the key listing it. */
export interface CursorHolder {
  storeId: number;
  application: string;
}

function holderFingerprint(holder: CursorHolder): string {
  return sha256Hex(JSON.stringify([holder.storeId, holder.application])).slice(0, 16);
}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(scope: string, conditions: Record<string, unknown>, position: CursorPosition, holder: CursorHolder): string {
    const payload = Buffer.from(
      JSON.stringify({ h: holderFingerprint(holder), c: fingerprint(scope, conditions), p: position }),
    ).toString('base64url');
    return `${payload}.${hmacBase64Url(this.secret, payload)}`;
  }

  /**
   * No cursor → first page. A cursor the service did not sign, or signed for another holder
   * (another store, another application) → invalid (422). A genuine cursor of this holder
   * issued under other query conditions → first page again (changing the conditions
   * restarts paging).
   */
  decode(
    scope: string,
    conditions: Record<string, unknown>,
    cursor: string | undefined,
    holder: CursorHolder,
  ): CursorReading {
    if (cursor === undefined) return { kind: 'first-page' };
    if (cursor.length > MAX_CURSOR_LENGTH) return { kind: 'invalid' };
    const dot = cursor.indexOf('.');
    if (dot <= 0) return { kind: 'invalid' };
    const payload = cursor.slice(0, dot);
    if (!safeEqual(cursor.slice(dot + 1), hmacBase64Url(this.secret, payload))) return { kind: 'invalid' };
    let parsed: { h?: unknown; c?: unknown; p?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      return { kind: 'invalid' };
    }
    if (!Array.isArray(parsed.p) || !parsed.p.every((v) => typeof v === 'number' || typeof v === 'string')) {
      return { kind: 'invalid' };
    }
    if (parsed.h !== holderFingerprint(holder)) return { kind: 'invalid' };
    if (parsed.c !== fingerprint(scope, conditions)) return { kind: 'first-page' };
    return { kind: 'continue', position: parsed.p };
  }

  /** Where to continue (undefined = the first page); a cursor not issued to this holder → 422. */
  readPosition(
    scope: string,
    conditions: Record<string, unknown>,
    cursor: string | undefined,
    holder: CursorHolder,
  ): CursorPosition | undefined {
    const reading = this.decode(scope, conditions, cursor, holder);
    if (reading.kind === 'invalid') {
      throw new ApiError('validation_failed', [
        detail('cursor', 'was not issued to this caller; omit it to start from the first page'),
      ]);
    }
    return reading.kind === 'continue' ? reading.position : undefined;
  }

  /** Cuts the `limit + 1` rows fetched into one page and the signed cursor to the next (null on the last). */
  page<T>(
    scope: string,
    conditions: Record<string, unknown>,
    rows: T[],
    limit: number,
    positionOf: (row: T) => CursorPosition,
    holder: CursorHolder,
  ) {
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > limit && last !== undefined ? this.encode(scope, conditions, positionOf(last), holder) : null;
    return { rows: page, nextCursor };
  }
}
