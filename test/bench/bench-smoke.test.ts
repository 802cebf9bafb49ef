// The benchmark harness end to end, tiny: a small seed, 1-second runs, a few rows, the API from
// source. Asserts only that it completes and prints the table with numbers in it and the targets
// judged, never anything about speed (the machine running the tests may be busy with anything).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { POSTGRES_ADMIN_URL, postgresEngine } from '../helpers/engines.js';

function runSmoke(...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runBench('bench/run.ts', '--smoke', ...extra);
}

function runBench(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const cellsOf = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());
const NUMBER = /^-?\d[\d,]*(\.\d+)?$/;

const CEILING = 'create ceiling: node:http, one committed INSERT (5 KB body)';
const CREATE = 'POST /v1/blog/posts (5 KB body)';
const SPREAD = 'POST /v1/blog/posts over 16 stores, one key each (5 KB body)';

/** The table's header cells and its rows by label. */
function tableOf(stdout: string): { header: string[]; rows: Map<string, string[]> } {
  const lines = stdout.split('\n').filter((l) => l.startsWith('|'));
  assert.ok(lines.length >= 3, `a table in:\n${stdout}`);
  return { header: cellsOf(lines[0]), rows: new Map(lines.slice(2).map((l) => [cellsOf(l)[0], cellsOf(l)])) };
}

/**
 * The create ceiling, the one-store and the 16-store create rows, each with a number in every
 * figure column and its ratio to the ceiling, every create answered 201, and the create targets
 * judged against the ceiling with the margin.
 */
function assertCreateRows(stdout: string, engine: 'SQLite' | 'PostgreSQL', oneStoreMin: string): void {
  const { header, rows } = tableOf(stdout);
  for (const label of [CEILING, CREATE, SPREAD]) {
    const row = rows.get(label);
    assert.ok(row, `row "${label}" in:\n${stdout}`);
    for (const column of [
      'req/s',
      'p50 ms',
      'p99 ms',
      '× create ceiling',
      'CPU µs/req',
      'machine CPU µs/req',
      'idle %',
      'peak RSS MB',
    ]) {
      const value = row[header.indexOf(column)];
      assert.match(value, NUMBER, `${label}: ${column} is a number (got "${value}")`);
    }
    assert.equal(row[header.indexOf('non-2xx')], '0', `${label}: every create answered 201`);
  }
  assert.equal(rows.get(CEILING)![header.indexOf('× create ceiling')], '1.00');
  const figure = (label: string, column: string) =>
    Number(rows.get(label)![header.indexOf(column)].replaceAll(',', ''));
  for (const [label, what, min] of [
    [CREATE, 'create, one store', oneStoreMin],
    [SPREAD, 'create over 16 stores', '0.25'],
  ] as const) {
    const line = stdout.split('\n').find((l) => l.startsWith(`${what} (${engine}) ≥ ${min} × the create ceiling (`));
    assert.ok(line, `the target of "${label}" in:\n${stdout}`);
    const m =
      / \(([\d,]+) ÷ ([\d,]+) req\/s\): ([\d.]+) \(needs ≥ ([\d.]+)\) — (met|MISSED|MISSED \(short of the margin\))$/.exec(
        line,
      );
    assert.ok(m, `a judged ratio in: ${line}`);
    assert.equal(Number(m[1].replaceAll(',', '')), Math.round(figure(label, 'req/s')));
    assert.equal(Number(m[2].replaceAll(',', '')), Math.round(figure(CEILING, 'req/s')));
    assert.equal(m[3], rows.get(label)![header.indexOf('× create ceiling')]);
    assert.equal(Number(m[4]), Number((Number(min) * 1.1).toFixed(3)), 'the 10 % margin');
    // From the table's rounded figures: judged only away from the threshold.
    const ratio = figure(label, 'req/s') / figure(CEILING, 'req/s');
    if (Math.abs(ratio - Number(m[4])) > 0.01)
      assert.equal(m[5] === 'met', ratio >= Number(m[4]), `the verdict follows the ratio: ${line}`);
    // Under it, the bound the machine's CPU puts on the ratio, from the same rows' figures.
    const lines = stdout.split('\n');
    const bound =
      /^ {2}the machine's CPU a create \(every process\): (\d+) µs \(([^)]*)\), (\d+) % idle; the ceiling's (\d+) µs \(([^)]*)\), (\d+) % idle; at \d+ µs the ratio can reach ([\d.]+) at most; ([\d.]+) needs ≤ (\d+) µs$/.exec(
        lines[lines.indexOf(line) + 1] ?? '',
      );
    assert.ok(bound, `the machine's bound under: ${line}`);
    assert.equal(Number(bound[1]), figure(label, 'machine CPU µs/req'));
    assert.equal(Number(bound[3]), figure(label, 'idle %'));
    assert.equal(Number(bound[4]), figure(CEILING, 'machine CPU µs/req'));
    assert.equal(Number(bound[6]), figure(CEILING, 'idle %'));
    assert.equal(Number(bound[8]), Number(m[4]));
    // Its parts: the server's CPU as in the table, PostgreSQL's on that engine only, the load generator's.
    const partsOf = (text: string) =>
      new RegExp(
        `^the server (\\d+)${engine === 'PostgreSQL' ? ', PostgreSQL \\d+' : ''}, the load generator \\d+$`,
      ).exec(text);
    for (const [text, row] of [
      [bound[2], label],
      [bound[5], CEILING],
    ] as const) {
      const parts = partsOf(text);
      assert.ok(parts, `the parts of the machine's CPU: ${text}`);
      assert.equal(Number(parts[1]), figure(row, 'CPU µs/req'));
    }
  }
  assert.match(
    stdout,
    /^load average \(1, 5, 15 min\): [\d.]+, [\d.]+, [\d.]+ at the start; [\d.]+, [\d.]+, [\d.]+ at the end$/m,
  );
}

describe('npm run bench:smoke', () => {
  it('completes and prints one table with numeric figures', { timeout: 180_000 }, async () => {
    const { code, stdout, stderr } = await runSmoke();
    assert.equal(code, 0, `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);

    const { header, rows } = tableOf(stdout);
    for (const column of ['endpoint', 'req/s', 'p50 ms', 'p99 ms', '× bare', 'peak RSS MB'])
      assert.ok(header.includes(column), `column ${column} in ${header.join(' | ')}`);

    for (const label of ['bare node:http, same post JSON', 'GET /v1/blog/posts/{id}', CREATE]) {
      const row = rows.get(label);
      assert.ok(row, `row "${label}" in:\n${stdout}`);
      for (const column of ['req/s', 'p50 ms', 'p99 ms', '× bare', 'peak RSS MB']) {
        const value = row[header.indexOf(column)];
        assert.match(value, NUMBER, `${label}: ${column} is a number (got "${value}")`);
      }
    }
    // The search rows: English and Traditional Chinese queries over their own store.
    const search = [...rows.keys()].filter((label) => label.startsWith('GET /v1/blog/posts?q='));
    for (const q of ['chocolate', '巧克力蛋糕', '蛋糕'])
      assert.ok(
        search.some((label) => label.startsWith(`GET /v1/blog/posts?q=${q} (`)),
        `search row for ${q} in:\n${stdout}`,
      );
    for (const label of search) {
      const row = rows.get(label)!;
      for (const column of ['p50 ms', 'p99 ms'])
        assert.match(row[header.indexOf(column)], NUMBER, `${label}: ${column} is a number`);
      assert.equal(row[header.indexOf('non-2xx')], '0', `${label}: every search answered 200`);
    }
    assert.match(stdout, /search p50 < 50 ms at \d+ connections over 300 posts: worst [\d.]+ ms/);
    assertCreateRows(stdout, 'SQLite', '0.25');
    assert.match(
      stdout,
      /^GET one post ≥ 0\.5 × the Fastify ceiling: [\d.]+ \(needs ≥ 0\.55\) — (met|MISSED)/m,
      'the read target, a ratio to the Fastify ceiling',
    );
    // The image variant rows: a first request (scale + encode) and a stored variant, all answered 200.
    for (const start of ['GET /media/…?w=N, first request', 'GET /media/…?w=N, variant already stored']) {
      const label = [...rows.keys()].find((l) => l.startsWith(start));
      assert.ok(label, `row "${start}…" in:\n${stdout}`);
      const row = rows.get(label)!;
      for (const column of ['req/s', 'p50 ms', 'p99 ms'])
        assert.match(row[header.indexOf(column)], NUMBER, `${label}: ${column} is a number`);
      assert.equal(row[header.indexOf('non-2xx')], '0', `${label}: every request answered 200`);
    }
  });

  it(
    'on PostgreSQL, measures the create ceiling and the create rows against it',
    { timeout: 180_000, skip: postgresEngine.skip },
    async () => {
      const { code, stdout, stderr } = await runSmoke(
        '--engine',
        'postgres',
        '--postgres-url',
        POSTGRES_ADMIN_URL,
        '--only',
        'create,create-stores',
      );
      assert.equal(code, 0, `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
      assertCreateRows(stdout, 'PostgreSQL', '0.2');
      // The ceiling commits one INSERT a request: one query each, in its own process.
      const { header, rows } = tableOf(stdout);
      assert.match(rows.get(CEILING)![header.indexOf('DB q/req')], NUMBER);
    },
  );

  it('with --filters, compares the HTML filters and judges each one', { timeout: 180_000 }, async () => {
    const { code, stdout, stderr } = await runSmoke('--filters');
    assert.equal(code, 0, `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
    const rows = new Map(
      stdout
        .split('\n')
        .filter((l) => l.startsWith('|'))
        .map((l) => [cellsOf(l)[0], cellsOf(l)]),
    );
    const filter = rows.get('streaming allow-list on htmlparser2 (the filter)');
    assert.ok(filter, `the filter's row in:\n${stdout}`);
    assert.match(filter[1], NUMBER, `articles MB/s is a number (got "${filter[1]}")`);
    // Exactness is not a speed: the filter must be judged exact even in a smoke run.
    assert.deepEqual(filter.slice(4, 8), ['372/372', '388/388', '388/388', 'yes']);
    for (const label of [
      'sanitize-html (the previous filter)',
      'xss package, same allow-list',
      'lol-html (WASM), same allow-list',
      'streaming allow-list, 2 worker threads',
    ]) {
      assert.match(rows.get(label)?.[1] ?? '', NUMBER, `row "${label}" with a number in:\n${stdout}`);
    }
  });

  it(
    'bench:compare runs two builds side by side and prints each read’s medians and their ratio',
    { timeout: 180_000 },
    async () => {
      // Both sides are the built output (npm install builds it); the tool is exercised, not a change.
      const built = join(process.cwd(), 'dist', 'src');
      const args = ['--against', built, '--no-build', '--posts', '100', '--rounds', '2', '--duration', '1'];
      const { code, stdout, stderr } = await runBench(
        'bench/compare.ts',
        ...args,
        '--only',
        'get,me',
        '--connections',
        '8',
      );
      assert.equal(code, 0, `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
      const { header, rows } = tableOf(stdout);
      assert.deepEqual(header, ['read', 'this build µs', `${built} µs`, "other ÷ this (median; each round's range)"]);
      for (const label of ['GET /v1/blog/posts/{id}', 'GET /v1/me']) {
        const row = rows.get(label);
        assert.ok(row, `row "${label}" in:\n${stdout}`);
        assert.match(row[1], NUMBER);
        assert.match(row[2], NUMBER);
        const m = /^(\d+\.\d{3}) \((\d+\.\d{3})-(\d+\.\d{3})\)$/.exec(row[3]);
        assert.ok(m, `a ratio and its range: ${row[3]}`);
        assert.ok(
          Number(m[2]) <= Number(m[1]) && Number(m[1]) <= Number(m[3]),
          `the median within the range: ${row[3]}`,
        );
      }
      // Each round of each read is printed as it ends: 2 reads × 2 rounds.
      assert.equal(stderr.match(/^ {2}round \d: [\d.]+ µs against [\d.]+ µs \([\d.]+\)$/gm)?.length, 4, stderr);
    },
  );
});
