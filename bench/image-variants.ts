// The rows of responsive image variants (docs/media.md, "Variants"): the first request of a
// variant, which scales and encodes it within the image processing turns and stores it, and a
// variant already stored, which is a file read. The images are 2000×1333 JPEGs of smooth colour
// fields (noise drawn at 1/8 size and scaled up: sizes like a photo's, where pure noise would
// make every byte count) uploaded through the API first; each is asked at every offered width with a browser's Accept
// (WebP) and with `*/*` (its own format), so every first request makes a different variant.
import { readCpuSeconds, readMemory, sampleRss, type RunningServer } from './lib/processes.js';
import sharp from 'sharp';
import { BOUNDARY, uploadBodyFactory } from './lib/jpeg.js';
import type { Row } from './lib/report.js';
import type { LoadSpec, Measurement, ScenarioContext } from './lib/scenarios.js';

/** Row keys, in table order. */
export const VARIANT_ROWS = ['variant-first', 'variant-cached'];

const WIDTHS = [320, 640, 960, 1280, 1920];
const ACCEPTS = ['image/avif,image/webp,image/apng,image/*,*/*;q=0.8', '*/*'];

export interface VariantBench {
  server: RunningServer;
  c: ScenarioContext;
  smoke: boolean;
  /** Connections of the first-request row (uploads' concurrency: work bounded by the processing turns). */
  uploadConnections: number;
  connections: number;
  duration: number;
  measure(spec: LoadSpec, connections: number, seconds: number, what: string): Promise<Measurement>;
  row(label: string, m: Measurement, connections: number): Row;
}

export async function variantRows(b: VariantBench): Promise<Array<[string, Row]>> {
  const jpeg = await smoothJpeg(2000, 1333);
  const bodyFor = uploadBodyFactory(jpeg);
  const paths: string[] = [];
  for (let i = 0; i < (b.smoke ? 1 : 6); i++) {
    const res = await fetch(`${b.server.url}/v1/media/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.c.key}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(bodyFor(`variants-${process.pid}-${i}`)),
    });
    if (res.status !== 201) throw new Error(`variant bench upload answered ${res.status}: ${await res.text()}`);
    paths.push(((await res.json()) as { path: string }).path);
  }
  const variants = paths.flatMap((path) =>
    WIDTHS.flatMap((w) => ACCEPTS.map((accept) => ({ path: `${path}?w=${w}`, accept }))),
  );
  const { m: first, bytes } = await firstRequests(b.server, variants, b.uploadConnections);
  const meanKb = Math.round(bytes / variants.length / 1024);
  const firstLabel = `GET /media/…?w=N, first request (scale + encode; ${variants.length} variants of 2000 px JPEGs, mean ${meanKb} KB)`;
  let n = 0;
  const cachedSpec: LoadSpec = {
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const v = variants[n++ % variants.length];
          return { ...req, path: v.path, headers: { ...req.headers, accept: v.accept } };
        },
      },
    ],
  };
  const cachedLabel = `GET /media/…?w=N, variant already stored (mean ${meanKb} KB)`;
  const cached = await b.measure(cachedSpec, b.connections, b.duration, cachedLabel);
  return [
    ['variant-first', b.row(firstLabel, first, b.uploadConnections)],
    ['variant-cached', b.row(cachedLabel, cached, b.connections)],
  ];
}

/** Each variant asked once, `connections` at a time, timed here: a load generator would repeat them. */
async function firstRequests(
  server: RunningServer,
  variants: Array<{ path: string; accept: string }>,
  connections: number,
): Promise<{ m: Measurement; bytes: number }> {
  let bytes = 0;
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let next = 0;
  const rss = sampleRss(server.pid);
  const cpuBefore = readCpuSeconds(server.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < variants.length) {
        const v = variants[next++];
        const t0 = performance.now();
        try {
          const res = await fetch(`${server.url}${v.path}`, { headers: { accept: v.accept } });
          bytes += (await res.arrayBuffer()).byteLength;
          statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = readCpuSeconds(server.pid) - cpuBefore;
  latencies.sort((x, y) => x - y);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)];
  const answered = latencies.length - errors;
  const m: Measurement = {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    peakRssMb: Math.max(rss.stop(), readMemory(server.pid)?.rssMb ?? NaN),
    cpuUsPerRequest: answered > 0 ? (cpu * 1e6) / answered : NaN,
    queriesPerRequest: null,
    redisCommandsPerRequest: null,
    non2xx: Object.entries(statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0),
    errors,
    statusCodes,
  };
  return { m, bytes };
}

async function smoothJpeg(width: number, height: number): Promise<Buffer> {
  const small = { width: Math.round(width / 8), height: Math.round(height / 8) };
  const noise = await sharp({
    create: {
      ...small,
      channels: 3,
      background: { r: 120, g: 140, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 50 },
    },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(noise.data, { raw: noise.info }).resize(width, height).jpeg({ quality: 90 }).toBuffer();
}
