// Store A of `npm run bench -- --only neighbours`, in a process of its own (its load must not slow
// the process measuring store B): sends the costliest requests its key allows until SIGTERM, then
// prints the count of each answer as JSON.
// At its limits (the default): its writes (largest post body, 64 KiB category body, rename) take
// turns at the key's write limit and its searches run at its read limit, evenly over the minute,
// and a 429 is honoured (Retry-After). NOISY_IGNORE_LIMITS=1: every loop sends back to back and
// ignores 429s, as a hostile client would.
// NOISY_LOOPS (a comma-separated subset of big,small,rename,search,over,images) runs only those
// kinds, to see which of A's requests slows B; `over` (MAX_JSON_BODY_BYTES bodies, which A's store
// refuses by their length before reading them) is not in the default set, which sends only what
// A's store allows. `images` (not in the default set either; the bench's image rows use it alone)
// uploads the costliest images A's default limits allow, as many at once as its key may have in
// flight: see noisy-images.ts.
import { KEY_DEFAULTS } from '../src/modules/keys/key-service.js';
import { wideBody } from './lib/wide-body.js';
import { costliestPng, uploadPng } from './noisy-images.js';

const { API_URL, API_KEY, CATEGORY_ID, WIDE_Q, MAX_BODY, LARGEST_BODY, NOISY_LOOPS, NOISY_IGNORE_LIMITS } =
  process.env as Record<string, string>;
const kinds = new Set((NOISY_LOOPS || 'big,small,rename,search').split(','));
const hostile = NOISY_IGNORE_LIMITS === '1';
// A's key is issued with the default limits.
const { writePerMinute: WRITES_PER_MINUTE, readPerMinute: READS_PER_MINUTE } = KEY_DEFAULTS;

const largestBody = wideBody(Number(LARGEST_BODY));
const overBody = kinds.has('over') ? wideBody(Number(MAX_BODY)) : '';
const smallBody = wideBody(64 * 1024);
const statuses: Record<string, number> = {};
let stopped = false;
let renames = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one request; returns how long to wait before the next when it was refused with 429 (ms). */
async function call(what: string, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  try {
    const res = await fetch(`${API_URL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body,
    });
    await res.arrayBuffer();
    statuses[`${what} ${res.status}`] = (statuses[`${what} ${res.status}`] ?? 0) + 1;
    return res.status === 429 ? Number(res.headers.get('retry-after') ?? 1) * 1000 : 0;
  } catch {
    statuses[`${what} failed`] = (statuses[`${what} failed`] ?? 0) + 1;
    return 0;
  }
}

type Send = () => Promise<number>;
const sends: Record<string, { write: boolean; send: Send }> = {
  big: {
    write: true,
    send: () =>
      call('largest post body', 'POST', '/v1/blog/posts', largestBody, { 'idempotency-key': `big-${Math.random()}` }),
  },
  over: {
    write: true,
    send: () =>
      call('16 MiB post body', 'POST', '/v1/blog/posts', overBody, { 'idempotency-key': `over-${Math.random()}` }),
  },
  small: {
    write: true,
    send: () =>
      call('64 KiB body', 'POST', '/v1/blog/categories', smallBody, { 'idempotency-key': `small-${Math.random()}` }),
  },
  rename: {
    write: true,
    send: () =>
      call(
        'rename (10 hanging endpoints)',
        'PATCH',
        `/v1/blog/categories/${CATEGORY_ID}`,
        JSON.stringify({ name: `Renamed ${++renames}` }),
      ),
  },
  search: {
    write: false,
    send: () => call('40-term search', 'GET', `/v1/blog/posts?q=${encodeURIComponent(WIDE_Q)}`),
  },
};

/** Back to back, 429s ignored (hostile). */
const flood = async (send: Send) => {
  while (!stopped) await send();
};

/** One request every `intervalMs` (started on time, however long the last took), waiting out a 429. */
const paced = async (sendNext: () => Send, intervalMs: number) => {
  let next = performance.now();
  while (!stopped) {
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
    if (stopped) break;
    const retryAfter = await sendNext()();
    next = Math.max(next + intervalMs, retryAfter > 0 ? performance.now() + retryAfter : 0);
  }
};

const chosen = Object.entries(sends).filter(([name]) => kinds.has(name));
const canvas = kinds.has('images') ? await costliestPng() : null;
/** Back to back on each of the key's in-flight slots, waiting out a 429 (both when ignoring limits). */
const uploads = canvas
  ? Array.from({ length: KEY_DEFAULTS.concurrency }, async () => {
      while (!stopped) {
        const retryAfter = await uploadPng(API_URL, API_KEY, canvas, statuses);
        if (retryAfter > 0 && !stopped) await sleep(retryAfter);
      }
    })
  : [];
const writes = chosen.filter(([, s]) => s.write).map(([, s]) => s.send);
const reads = chosen.filter(([, s]) => !s.write).map(([, s]) => s.send);
let turn = 0;
const loops = hostile
  ? // Every kind back to back, the searches on two loops (a search answers far sooner than a write).
    [...chosen.map(([, s]) => flood(s.send)), ...reads.map((send) => flood(send))]
  : [
      // The writes take turns at the write limit; the searches run at the read limit.
      writes.length > 0 && paced(() => writes[turn++ % writes.length]!, 60_000 / WRITES_PER_MINUTE),
      reads.length > 0 && paced(() => reads[0]!, 60_000 / READS_PER_MINUTE),
    ].filter((running) => running !== false);
loops.push(...uploads);

process.once('SIGTERM', () => {
  stopped = true;
  void Promise.all(loops).then(() => {
    process.stdout.write(`${JSON.stringify(statuses)}\n`);
    process.exit(0);
  });
});
process.stdout.write(`ready${hostile ? ' (ignoring limits)' : ''}\n`);
