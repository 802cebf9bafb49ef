// The costliest JSON body of a size for the noisy-neighbours bench: as many one-value fields as fit
// (each value is work for the server's checks, where a long string is not). Shared by the bench
// and store A's own process (bench/noisy-store.ts), which must not load the rest of the bench.

/** `{"f0":1,"f1":1,…}` just under `bytes` long. */
export function wideBody(bytes: number): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 16; i++) {
    const p = `"f${i}":1`;
    parts.push(p);
    size += p.length + 1;
  }
  return `{${parts.join(',')}}`;
}
