// Rows of what readers and crawlers fetch: a post page as a cache revalidates it
// (If-None-Match, answered 304 without a body), the same page in full, and the Atom feed of the
// 20 newest posts with their bodies. Every request still renders the page or feed (the answer
// is built from the database, then compared with the client's ETag), so the 304 row shows what
// revalidation saves in bytes and transfer, not rendering.
import type { RunningServer } from './lib/processes.js';
import type { LoadSpec, Measurement } from './lib/scenarios.js';

export const PUBLISHING_ROWS = ['page-304', 'page', 'feed'] as const;

type Measure = (
  server: RunningServer,
  spec: LoadSpec,
  connections: number,
  seconds: number,
  what: string,
) => Promise<Measurement>;

/** The table counts 2xx answers as served; here a 304 is the answer asked for. */
function notModifiedAsSuccess(m: Measurement, seconds: number): Measurement {
  const { 304: notModified = 0, ...others } = m.statusCodes;
  return { ...m, rps: m.rps + notModified / seconds, non2xx: m.non2xx - notModified, statusCodes: others };
}

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res;
}

export async function measurePublishing(
  api: RunningServer,
  handle: string,
  opts: { connections: number; duration: number; warmup: number },
  measure: Measure,
): Promise<Array<{ name: (typeof PUBLISHING_ROWS)[number]; label: string; m: Measurement }>> {
  const index = await (await fetchOk(`${api.url}/s/${handle}/blog`)).text();
  const postPath = /href="[^"]*(\/s\/[^"]+\/blog\/posts\/\d+)"/.exec(index)?.[1];
  if (!postPath) throw new Error(`no published post on /s/${handle}/blog`);
  const etag = (await fetchOk(`${api.url}${postPath}`)).headers.get('etag') ?? '';
  const feedPath = `/s/${handle}/blog/feed.xml`;
  await fetchOk(`${api.url}${feedPath}`);
  const specs: Array<{ name: (typeof PUBLISHING_ROWS)[number]; label: string; spec: LoadSpec }> = [
    {
      name: 'page-304',
      label: 'GET /s/{handle}/blog/posts/{id}, If-None-Match (304)',
      spec: { headers: { 'if-none-match': etag }, requests: [{ method: 'GET', path: postPath }] },
    },
    {
      name: 'page',
      label: 'GET /s/{handle}/blog/posts/{id} (200)',
      spec: { requests: [{ method: 'GET', path: postPath }] },
    },
    {
      name: 'feed',
      label: 'GET /s/{handle}/blog/feed.xml (20 posts)',
      spec: { requests: [{ method: 'GET', path: feedPath }] },
    },
  ];
  const rows = [];
  for (const s of specs) {
    if (opts.warmup > 0) await measure(api, s.spec, opts.connections, opts.warmup, `${s.label} (warm-up)`);
    const m = await measure(api, s.spec, opts.connections, opts.duration, s.label);
    rows.push({ name: s.name, label: s.label, m: s.name === 'page-304' ? notModifiedAsSuccess(m, opts.duration) : m });
  }
  return rows;
}
