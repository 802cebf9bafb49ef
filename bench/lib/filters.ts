// `npm run bench -- --filters`: the HTML filter candidates side by side, in this one process, on
// identical input, so that a busy machine slows them all alike. No server and no database.
//
// Inputs: 5 KB articles written with `<br>` (the create row's bodies that the filter must
// rewrite) and the XSS corpus. Speed is the thread's CPU time per megabyte (process.cpuUsage),
// the median of several rounds that interleave the candidates; the thread rows are wall-clock
// throughput of a worker pool kept busy. Exactness, per candidate: how many corpus payloads come
// out with no disallowed markup (re-parsed by parse5, the test suite's check), how many bodies
// come out exactly as the previous filter (sanitize-html) wrote them, warnings included, and how
// many outputs are a fixed point.
import { readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { SAXParser } from 'parse5-sax-parser';
import { FilterXSS } from 'xss';
import { HTMLRewriter } from 'html-rewriter-wasm';
import { Piscina } from 'piscina';
import { sanitizePostHtml, type FilteredHtml } from '../../src/modules/posts/html-filter.js';
import {
  ALLOWED_ATTRIBUTES,
  CONTENT_DROPPED_TAGS,
  LINK_SCHEMES,
  SCHEMES_BY_TAG,
  URL_ATTRIBUTES,
} from '../../src/modules/posts/html-allow-list.js';
import { referenceFilterHtml } from '../../test/helpers/sanitize-html-filter.js';
import { violations } from '../../test/helpers/html-safety.js';
import { articleHtml } from './seed.js';

interface Candidate {
  name: string;
  filter: (html: string) => FilteredHtml | Promise<FilteredHtml>;
  /** False for parse-only floors, which produce no output to judge. */
  judged: boolean;
  /** Whether the candidate names what it removed (the API's `warnings`). */
  warns: boolean;
}

const noWarnings = (html: string): FilteredHtml => ({ html, warnings: [] });

/** A URL scheme the element does not allow (a candidate-side check for the libraries without one). */
function unsafeUrl(tag: string, value: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(value.replace(/[\s\p{Cc}\p{Cf}]/gu, '').toLowerCase())?.[1];
  return scheme !== undefined && !(SCHEMES_BY_TAG[tag] ?? LINK_SCHEMES).includes(scheme);
}

/** The `xss` package configured with the same allow-list. */
function xssCandidate(): Candidate {
  const xss = new FilterXSS({
    whiteList: Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([tag, attrs]) => [tag, [...attrs]])),
    stripIgnoreTag: true,
    stripIgnoreTagBody: [...CONTENT_DROPPED_TAGS],
    allowCommentTag: false,
    css: false,
  });
  return {
    name: 'xss package, same allow-list',
    filter: (html) => noWarnings(xss.process(html)),
    judged: true,
    warns: false,
  };
}

/** lol-html (Cloudflare's streaming rewriter, Rust compiled to WebAssembly) with the same allow-list. */
function lolHtmlCandidate(): Candidate {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return {
    name: 'lol-html (WASM), same allow-list',
    judged: true,
    warns: false,
    filter: async (html) => {
      const chunks: Uint8Array[] = [];
      const rewriter = new HTMLRewriter((chunk) => chunks.push(chunk.slice()));
      rewriter.on('*', {
        element(el) {
          const tag = el.tagName.toLowerCase();
          const allowed = Object.hasOwn(ALLOWED_ATTRIBUTES, tag) ? ALLOWED_ATTRIBUTES[tag] : null;
          if (allowed === null) {
            if (CONTENT_DROPPED_TAGS.has(tag)) el.remove();
            else el.removeAndKeepContent();
            return;
          }
          for (const [name, value] of [...el.attributes]) {
            if (!allowed.includes(name) || (URL_ATTRIBUTES.has(name) && unsafeUrl(tag, value)))
              el.removeAttribute(name);
          }
        },
      });
      rewriter.onDocument({ comments: (c) => void c.remove() });
      try {
        await rewriter.write(encoder.encode(html));
        await rewriter.end();
      } finally {
        rewriter.free();
      }
      return noWarnings(decoder.decode(Buffer.concat(chunks)));
    },
  };
}

const CANDIDATES: Candidate[] = [
  { name: 'sanitize-html (the previous filter)', filter: referenceFilterHtml, judged: true, warns: true },
  { name: 'streaming allow-list on htmlparser2 (the filter)', filter: sanitizePostHtml, judged: true, warns: true },
  xssCandidate(),
  lolHtmlCandidate(),
  {
    name: 'htmlparser2 parse alone (floor)',
    judged: false,
    warns: false,
    filter: (html) => {
      const parser = new Parser({}, { decodeEntities: true });
      parser.write(html);
      parser.end();
      return noWarnings('');
    },
  },
  {
    name: 'parse5-sax-parser parse alone (floor)',
    judged: false,
    warns: false,
    filter: (html) => {
      const parser = new SAXParser();
      parser.on('startTag', () => {});
      parser.end(html);
      return noWarnings('');
    },
  },
];

interface Inputs {
  articles: string[];
  corpus: string[];
}

function loadInputs(bodyBytes: number): Inputs {
  const payloads = JSON.parse(
    readFileSync(new URL('../../test/fixtures/xss/payloads.json', import.meta.url), 'utf8'),
  ) as Array<{ payload: string }>;
  return {
    articles: Array.from({ length: 16 }, (_, i) => articleHtml(bodyBytes, i + 1).replaceAll('</p>', '<br></p>')),
    corpus: payloads.map((p) => p.payload),
  };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** MB/s of CPU time: runs through `bodies` repeatedly for at least `ms` of CPU. */
async function cpuThroughput(candidate: Candidate, bodies: string[], ms: number): Promise<number> {
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  const start = cpuMs();
  let rounds = 0;
  do {
    for (const body of bodies) await candidate.filter(body);
    rounds++;
  } while (cpuMs() - start < ms);
  return (bytes * rounds) / 1e6 / ((cpuMs() - start) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

interface Exactness {
  neutralised: number;
  sameAsPrevious: number;
  fixedPoints: number;
  total: number;
}

async function judge(candidate: Candidate, inputs: Inputs): Promise<Exactness> {
  const bodies = [...inputs.corpus, ...inputs.articles];
  let neutralised = 0;
  let same = 0;
  let fixed = 0;
  for (const [i, body] of bodies.entries()) {
    const out = await candidate.filter(body);
    if (i < inputs.corpus.length && violations(out.html).length === 0) neutralised++;
    const previous = referenceFilterHtml(body);
    if (
      out.html === previous.html &&
      (!candidate.warns || JSON.stringify(out.warnings) === JSON.stringify(previous.warnings))
    )
      same++;
    const again = await candidate.filter(out.html);
    if (again.html === out.html && again.warnings.length === 0) fixed++;
  }
  return { neutralised, sameAsPrevious: same, fixedPoints: fixed, total: bodies.length };
}

/** Bodies per second through a pool of `threads` workers, kept `threads * 4` bodies deep. */
async function poolThroughput(workerFile: URL, threads: number, bodies: string[], seconds: number): Promise<number> {
  const pool = new Piscina({ filename: workerFile.href, minThreads: threads, maxThreads: threads });
  try {
    await Promise.all(bodies.slice(0, threads * 4).map((b) => pool.run(b)));
    let bytes = 0;
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const lane = async (offset: number) => {
      for (let i = offset; performance.now() < deadline; i += threads * 4) {
        const body = bodies[i % bodies.length];
        await pool.run(body);
        bytes += body.length;
      }
    };
    await Promise.all(Array.from({ length: threads * 4 }, (_, i) => lane(i)));
    return bytes / 1e6 / ((performance.now() - started) / 1000);
  } finally {
    await pool.destroy();
  }
}

export interface FilterComparisonOptions {
  bodyBytes: number;
  rounds: number;
  /** CPU milliseconds per candidate, input and round. */
  msPerRound: number;
  /** Wall-clock seconds per thread-pool row. */
  poolSeconds: number;
}

export async function compareFilters(options: FilterComparisonOptions, log: (line: string) => void): Promise<string> {
  const inputs = loadInputs(options.bodyBytes);
  const speeds = new Map<Candidate, { articles: number[]; corpus: number[] }>(
    CANDIDATES.map((c) => [c, { articles: [], corpus: [] }]),
  );
  for (const c of CANDIDATES) await cpuThroughput(c, inputs.articles, 100); // warm-up
  for (let round = 1; round <= options.rounds; round++) {
    log(`filters: round ${round}/${options.rounds}`);
    for (const c of CANDIDATES) {
      speeds.get(c)!.articles.push(await cpuThroughput(c, inputs.articles, options.msPerRound));
      speeds.get(c)!.corpus.push(await cpuThroughput(c, inputs.corpus, options.msPerRound));
    }
  }
  const reference = median(speeds.get(CANDIDATES[0])!.articles);
  const rows: string[][] = [];
  for (const c of CANDIDATES) {
    const s = speeds.get(c)!;
    const articles = median(s.articles);
    const exact = c.judged ? await judge(c, inputs) : null;
    rows.push([
      c.name,
      articles.toFixed(1),
      (articles / reference).toFixed(2),
      median(s.corpus).toFixed(1),
      exact ? `${exact.neutralised}/${inputs.corpus.length}` : '–',
      exact ? `${exact.sameAsPrevious}/${exact.total}` : '–',
      exact ? `${exact.fixedPoints}/${exact.total}` : '–',
      c.judged ? (c.warns ? 'yes' : 'no') : '–',
    ]);
  }

  // More threads: the same bodies through a worker pool, wall clock (all cores, shared with whatever else runs).
  const pools = [
    { name: 'sanitize-html', file: new URL('./reference-filter-worker.ts', import.meta.url) },
    { name: 'streaming allow-list', file: new URL('../../src/modules/posts/html-filter-worker.ts', import.meta.url) },
  ];
  const threadRows: string[][] = [];
  for (const p of pools) {
    for (const threads of [1, 2]) {
      log(`filters: ${p.name} on ${threads} worker thread${threads > 1 ? 's' : ''}`);
      const mbps = await poolThroughput(p.file, threads, inputs.articles, options.poolSeconds);
      threadRows.push([
        `${p.name}, ${threads} worker thread${threads > 1 ? 's' : ''}`,
        mbps.toFixed(1),
        (mbps / reference).toFixed(2),
      ]);
    }
  }

  const articleKb = (inputs.articles.reduce((n, b) => n + b.length, 0) / inputs.articles.length / 1024).toFixed(1);
  return [
    `HTML filter candidates: ${inputs.articles.length} articles of ${articleKb} KB written with <br> (every one rewritten), ${inputs.corpus.length} XSS payloads; ` +
      `CPU MB/s, median of ${options.rounds} interleaved rounds`,
    '',
    table(
      [
        'candidate',
        'articles MB/s',
        '× sanitize-html',
        'corpus MB/s',
        'corpus neutralised',
        'same as sanitize-html',
        'fixed point',
        'warnings',
      ],
      rows,
    ),
    '',
    'Worker threads (wall clock, articles only; the pool is kept four bodies per thread deep):',
    '',
    table(['pool', 'articles MB/s', '× sanitize-html in place'], threadRows),
  ].join('\n');
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}
