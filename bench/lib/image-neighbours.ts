// The image rows of `npm run bench -- --only neighbours`: store B reads one of its image files
// (GET /media/...) and one of its posts, 2 connections each, quiet and then while store A uploads
// the costliest images its default limits allow (noisy-images.ts) on every in-flight slot of its
// key. Image processing and file reads share libuv's thread pool, so this is where a missing
// bulkhead shows. See docs/performance.md, "Noisy neighbours".
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { readCpuSeconds, type RunningServer } from './processes.js';
import * as scenario from './scenarios.js';

export interface ImageNeighbours {
  server: RunningServer;
  bKey: string;
  bPostIds: number[];
  durationSeconds: number;
  /** Starts store A's process with these NOISY_LOOPS; resolves with a function that stops it and returns its answers. */
  startA: (loops: string) => Promise<() => Promise<Record<string, number>>>;
  log: (text: string) => void;
}

/** A photo-like JPEG for B (noise, 1200 × 800, about 400 KB), uploaded through the API. */
async function uploadBImage(server: RunningServer, key: string): Promise<string> {
  const jpeg = await sharp(randomBytes(1200 * 800 * 3), { raw: { width: 1200, height: 800, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(`${server.url}/v1/media/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const body = (await res.json()) as { path: string };
  if (res.status !== 201) throw new Error(`B's image: ${res.status} ${JSON.stringify(body)}`);
  return body.path;
}

export async function imageNeighbourRows(n: ImageNeighbours): Promise<string[]> {
  const path = await uploadBImage(n.server, n.bKey);
  const fileSpec: scenario.LoadSpec = { requests: [{ method: 'GET', path }] };
  let statuses: Record<string, number> = {};
  const phase = async (noisy: boolean) => {
    const stopA = noisy ? await n.startA('images') : null;
    const label = noisy ? 'B, with A uploading images' : 'B, quiet';
    n.log(`  ${label}: ${n.durationSeconds} s`);
    const cpuBefore = readCpuSeconds(n.server.pid);
    const [file, read] = await Promise.all([
      scenario.measure(n.server, fileSpec, 2, n.durationSeconds),
      scenario.measure(
        n.server,
        scenario.getPost({ key: n.bKey, postIds: n.bPostIds, bodyBytes: 2048 }),
        2,
        n.durationSeconds,
      ),
    ]);
    const apiCpu = readCpuSeconds(n.server.pid) - cpuBefore;
    if (stopA) statuses = await stopA();
    return { label, file, read, apiCpu, rss: Math.max(file.peakRssMb, read.peakRssMb) };
  };
  const quiet = await phase(false);
  const noisy = await phase(true);
  const lines = [
    `Noisy neighbours, images (${n.durationSeconds} s per phase; B: GET ${path.replace(/[^/]+$/, '<basename>')} × 2 connections and GET /v1/blog/posts/{id} × 2 connections)`,
    '| phase | B file req/s | B file p50 ms | B file p99 ms | B read req/s | B read p50 ms | B read p99 ms | API peak RSS MB | API CPU s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const p of [quiet, noisy])
    lines.push(
      `| ${p.label} | ${Math.round(p.file.rps)} | ${p.file.p50} | ${p.file.p99} | ${Math.round(p.read.rps)} | ${p.read.p50} | ${p.read.p99} | ${Math.round(p.rss)} | ${p.apiCpu.toFixed(1)} |`,
    );
  lines.push(
    `A's answers while running: ${Object.entries(statuses)
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}`,
  );
  const ratio = (with_: number, without: number) => with_ / Math.max(without, 1);
  const fileRatio = ratio(noisy.file.p99, quiet.file.p99);
  const readRatio = ratio(noisy.read.p99, quiet.read.p99);
  const verdict = (r: number) => `${r.toFixed(2)} × — ${r <= 2 ? 'met' : 'MISSED'}`;
  lines.push(`targets: B file p99 ≤ 2 × quiet: ${verdict(fileRatio)}; B read p99 ≤ 2 × quiet: ${verdict(readRatio)}`);
  return lines;
}
