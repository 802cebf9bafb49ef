// The part of a receiver's answer kept with each delivery attempt (attempt-log.ts).

/** The answer's body kept per attempt, at most. */
export const EXCERPT_BYTES = 1024;

/** The first EXCERPT_BYTES of a body as text (a character cut in half is dropped). */
export function excerptOf(body: Buffer): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(body.subarray(0, EXCERPT_BYTES)).replace(/\uFFFD$/, '');
}
