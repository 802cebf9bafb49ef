// Conditional GET (RFC 9110 §13): the ETag is a hash of the rendered page, so anything shown
// (title, body, cover, categories, store name, time zone) changes it without tracking each
// source; Last-Modified is the newest of those sources' update times.
import { createHash } from 'node:crypto';

export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** HTTP dates have one-second precision. */
export function httpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

function matchesAny(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => bare(tag) === '*' || bare(tag) === etag);
}

/**
 * True when the client's copy is current. If-None-Match wins when sent (weak comparison);
 * If-Modified-Since is read only without it, as the RFC requires.
 */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModifiedMs: number | null,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesAny(ifNoneMatch, etag);
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || lastModifiedMs === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModifiedMs / 1000) * 1000 <= since;
}
