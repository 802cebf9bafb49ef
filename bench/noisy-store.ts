// Store A of `npm run bench -- --only neighbours`, in a process of its own (its load must not slow
// the process measuring store B): sends the costliest requests its key allows, back to back,
// until SIGTERM, then prints the count of each answer as JSON.
// NOISY_LOOPS (a comma-separated subset of big,small,rename,search,over) runs only those kinds, to
// see which of A's requests slows B; `over` (MAX_JSON_BODY_BYTES bodies, which A's store refuses by
// their length before reading them) is not in the default set, which sends only what A's store allows.
const { API_URL, API_KEY, CATEGORY_ID, WIDE_Q, MAX_BODY, LARGEST_BODY, NOISY_LOOPS } = process.env as Record<
  string,
  string
>;
const kinds = new Set((NOISY_LOOPS || 'big,small,rename,search').split(','));

function wideBody(bytes: number): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 16; i++) {
    const p = `"f${i}":1`;
    parts.push(p);
    size += p.length + 1;
  }
  return `{${parts.join(',')}}`;
}

const largestBody = wideBody(Number(LARGEST_BODY));
const overBody = kinds.has('over') ? wideBody(Number(MAX_BODY)) : '';
const smallBody = wideBody(64 * 1024);
const statuses: Record<string, number> = {};
let stopped = false;
let renames = 0;

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
  } catch {
    statuses[`${what} failed`] = (statuses[`${what} failed`] ?? 0) + 1;
  }
}

const loop = async (send: () => Promise<void>) => {
  while (!stopped) await send();
};

const loops = [
  kinds.has('big') &&
    loop(() =>
      call('largest post body', 'POST', '/v1/blog/posts', largestBody, { 'idempotency-key': `big-${Math.random()}` }),
    ),
  kinds.has('over') &&
    loop(() =>
      call('16 MiB post body', 'POST', '/v1/blog/posts', overBody, { 'idempotency-key': `over-${Math.random()}` }),
    ),
  kinds.has('small') &&
    loop(() =>
      call('64 KiB body', 'POST', '/v1/blog/categories', smallBody, { 'idempotency-key': `small-${Math.random()}` }),
    ),
  kinds.has('rename') &&
    loop(() =>
      call(
        'rename (10 hanging endpoints)',
        'PATCH',
        `/v1/blog/categories/${CATEGORY_ID}`,
        JSON.stringify({ name: `Renamed ${++renames}` }),
      ),
    ),
  kinds.has('search') && loop(() => call('40-term search', 'GET', `/v1/blog/posts?q=${encodeURIComponent(WIDE_Q)}`)),
  kinds.has('search') && loop(() => call('40-term search', 'GET', `/v1/blog/posts?q=${encodeURIComponent(WIDE_Q)}`)),
].filter((running) => running !== false);

process.once('SIGTERM', () => {
  stopped = true;
  void Promise.all(loops).then(() => {
    process.stdout.write(`${JSON.stringify(statuses)}\n`);
    process.exit(0);
  });
});
process.stdout.write('ready\n');
