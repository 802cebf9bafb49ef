// Conditional requests (RFC 9110 §13), the one implementation for every route that sends an
// ETag: store-front pages, /docs and its assets, public image files and /v1 posts.
// Store-front pages hash the rendered page, so anything shown (title, body, cover, categories,
// store name, time zone) changes it without tracking each source; Last-Modified is the newest
// of those sources' update times. Posts: see post-etag.ts.
import { createHash } from 'node:crypto';

/** A strong ETag: the first 160 bits of the SHA-256 of the representation. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** HTTP dates have one-second precision. */
export function httpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

const entityTags = (header: string) => header.split(',').map((tag) => tag.trim());

/** If-None-Match uses the weak comparison: `W/"x"` matches `"x"`; `*` matches anything. */
function matchesWeakly(ifNoneMatch: string, etag: string): boolean {
  return entityTags(ifNoneMatch).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/**
 * True when the client's copy is current. If-None-Match wins when sent (weak comparison);
 * If-Modified-Since is read only without it, as the RFC requires.
 */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModifiedMs: number | null = null,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesWeakly(ifNoneMatch, etag);
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || lastModifiedMs === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModifiedMs / 1000) * 1000 <= since;
}

/**
 * If-Match uses the strong comparison: a weak tag never matches, `*` matches any current
 * representation. `etag` is the current representation's.
 */
export function ifMatchHolds(ifMatch: string, etag: string): boolean {
  return entityTags(ifMatch).some((tag) => tag === '*' || (!tag.startsWith('W/') && tag === etag));
}
