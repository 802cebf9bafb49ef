// The one table the run prints (Markdown, so it can be pasted into docs/performance.md as is).
import type { Measurement } from './scenarios.js';

export interface Row {
  label: string;
  connections: number | null;
  m: Measurement | null;
  /** Throughput relative to the bare node:http ceiling. */
  ratio: number | null;
  /** Throughput relative to the Fastify ceiling (one route, same bytes, one log line a request). */
  ratioFastify?: number | null;
  /** Throughput relative to the one-query ceiling (PostgreSQL). */
  ratioOneQuery?: number | null;
  /** Throughput relative to the create ceiling (node:http + one committed INSERT). */
  ratioCreate?: number | null;
  /** Shown instead of figures (e.g. "n/a (not available)"). */
  note?: string;
}

const fmt = (n: number, digits: number) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '–';

export function formatTable(rows: Row[]): string {
  const header = [
    'endpoint',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    '× bare',
    '× Fastify',
    '× 1-query',
    '× create ceiling',
    'CPU µs/req',
    'machine CPU µs/req',
    'idle %',
    'DB q/req',
    'Redis cmd/req',
    'peak RSS MB',
    'non-2xx',
  ];
  const body = rows.map((r) => {
    if (!r.m)
      return [
        r.label,
        r.connections === null ? '' : String(r.connections),
        r.note ?? 'n/a',
        ...Array<string>(header.length - 3).fill(''),
      ];
    const statuses = Object.entries(r.m.statusCodes).filter(([code]) => !code.startsWith('2'));
    const non2xx =
      r.m.non2xx + r.m.errors === 0
        ? '0'
        : `${r.m.non2xx + r.m.errors}${statuses.length ? ` (${statuses.map(([c, n]) => `${c}×${n}`).join(' ')})` : ''}`;
    return [
      r.label,
      String(r.connections ?? ''),
      fmt(r.m.rps, 0),
      fmt(r.m.p50, 1),
      fmt(r.m.p99, 1),
      r.ratio === null ? '' : fmt(r.ratio, 2),
      r.ratioFastify == null ? '' : fmt(r.ratioFastify, 2),
      r.ratioOneQuery == null ? '' : fmt(r.ratioOneQuery, 2),
      r.ratioCreate == null ? '' : fmt(r.ratioCreate, 2),
      fmt(r.m.cpuUsPerRequest, 0),
      fmt(r.m.machineCpuUsPerRequest ?? NaN, 0),
      fmt((r.m.machineIdle ?? NaN) * 100, 0),
      r.m.queriesPerRequest === null ? '' : fmt(r.m.queriesPerRequest, 2),
      r.m.redisCommandsPerRequest == null ? '' : fmt(r.m.redisCommandsPerRequest, 2),
      fmt(r.m.peakRssMb, 0),
      non2xx,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i].length)));
  const right = [false, ...Array<boolean>(header.length - 1).fill(true)];
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/** The middle item by `by` (the lower of the two middle ones when there is an even number). */
export function median<T>(items: T[], by: (t: T) => number): T;
export function median(items: number[]): number;
export function median<T>(items: T[], by: (t: T) => number = (t) => t as number): T {
  const sorted = [...items].sort((a, b) => by(a) - by(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * What the machine's CPU allows a row, whatever the API's code: the ceiling ran at its
 * CPUs' busy share ÷ its machine CPU a request, and the row can run at most at all of them ÷ its
 * own, so the ratio is at most ceiling µs ÷ (row µs × the ceiling's busy share). Both figures
 * count every process (the API or the ceiling, the database, Redis, the load generator).
 */
export function machineBound(
  row: Measurement,
  ceiling: Measurement,
  needed: number,
  request: 'create' | 'read',
  engine: 'sqlite' | 'postgres',
): string[] {
  const own = row.machineCpuUsPerRequest ?? NaN;
  const theirs = ceiling.machineCpuUsPerRequest ?? NaN;
  const idle = ceiling.machineIdle ?? NaN;
  const busy = 1 - idle;
  if (!(own > 0 && theirs > 0 && busy > 0)) return [];
  const percent = (share: number) => `${Math.round(share * 100)} %`;
  const parts = (m: Measurement) =>
    [
      `the server ${Math.round(m.cpuUsPerRequest)}`,
      engine === 'postgres' ? `PostgreSQL ${Math.round(m.postgresCpuUsPerRequest ?? NaN)}` : null,
      `the load generator ${Math.round(m.loadGeneratorCpuUsPerRequest ?? NaN)}`,
    ]
      .filter((part) => part !== null)
      .join(', ');
  return [
    `  the machine's CPU a ${request} (every process): ${Math.round(own)} µs (${parts(row)}), ${percent(row.machineIdle ?? NaN)} idle; ` +
      `the ceiling's ${Math.round(theirs)} µs (${parts(ceiling)}), ${percent(idle)} idle; at ${Math.round(own)} µs the ratio can reach ` +
      `${(theirs / (own * busy)).toFixed(2)} at most; ${needed.toFixed(3)} needs ≤ ${Math.round(theirs / (needed * busy))} µs`,
  ];
}
