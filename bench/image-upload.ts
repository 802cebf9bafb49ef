// Image upload benchmark: the real app on a temporary SQLite database and a loopback port,
// uploading a 12-megapixel JPEG again and again (distinct bytes each time, so nothing is
// de-duplicated) at concurrency 1 and 4. Prints uploads/s, latency and peak RSS; no assertions.
//
//   node --import tsx bench/image-upload.ts            (BENCH_UPLOADS=N to change the count)
//
// The client runs in the same process, so RSS includes its copy of each body in flight.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/context.js';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 24);
const CONCURRENCIES = [1, 4];

/** A noisy 4000×3000 photo-like JPEG (~6–7 MiB): noise drawn at half size, then scaled up. */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 2000,
      height: 1500,
      channels: 3,
      background: { r: 120, g: 140, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(noise.data, { raw: noise.info }).resize(4000, 3000).jpeg({ quality: 92 }).toBuffer();
}

/** Same picture, different bytes: a JPEG comment segment with a counter right after SOI. */
function variant(jpeg: Buffer, n: number): Buffer {
  const text = Buffer.from(`bench-${process.pid}-${n}-${Date.now()}`);
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]), text]);
  return Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'blogapi-bench-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${join(dir, 'blog.db')}`,
    MEDIA_DIR: join(dir, 'media'),
    PORT: '0',
    LOG_LEVEL: 'warn',
  });
  const ctx = await createContext(config);
  const app = await buildApp(ctx, { logLevel: 'warn' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  try {
    const store = await ctx.stores.create({ handle: 'bench', name: 'Bench' });
    await ctx.stores.update('bench', { images_per_day: 1_000_000, image_max_bytes: 20 * 1024 * 1024 });
    const { key } = await ctx.keys.issue({
      storeId: store.id,
      application: 'bench',
      scopes: ['write_media'],
      writePerMinute: 1_000_000,
      concurrency: 16,
    });

    const source = await twelveMegapixelJpeg();
    const meta = await sharp(source).metadata();
    console.log(
      `input: ${meta.width}x${meta.height} JPEG, ${(source.length / 1048576).toFixed(2)} MiB; ${UPLOADS} uploads per run; node ${process.version}`,
    );

    let sequence = 0;
    const uploadOnce = async (): Promise<number> => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(variant(source, sequence++))], { type: 'image/jpeg' }), 'photo.jpg');
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/v1/media/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      const body = await res.text();
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${body}`);
      return performance.now() - started;
    };

    await uploadOnce(); // warm-up: loads libvips codecs, creates folders

    const rows: string[][] = [];
    for (const concurrency of CONCURRENCIES) {
      global.gc?.();
      let peakRss = process.memoryUsage.rss();
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 10);
      const latencies: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < UPLOADS) {
            next++;
            latencies.push(await uploadOnce());
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      latencies.sort((a, b) => a - b);
      rows.push([
        String(concurrency),
        String(latencies.length),
        (latencies.length / seconds).toFixed(2),
        percentile(latencies, 50).toFixed(0),
        percentile(latencies, 99).toFixed(0),
        (peakRss / 1048576).toFixed(0),
      ]);
    }

    const header = ['concurrency', 'uploads', 'uploads/s', 'p50 ms', 'p99 ms', 'peak RSS MB'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
    console.log(line(header));
    for (const row of rows) console.log(line(row));
  } finally {
    await app.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
