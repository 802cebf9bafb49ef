// The benchmark harness end to end, tiny: a small seed, 1-second runs, two endpoints, the API
// from source. Asserts only that it completes and prints the table with numbers in it, never
// anything about speed (the machine running the tests may be busy with anything).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';

function runSmoke(...extra: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', ...extra], {
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

describe('npm run bench:smoke', () => {
  it('completes and prints one table with numeric figures', { timeout: 180_000 }, async () => {
    const { code, stdout, stderr } = await runSmoke();
    assert.equal(code, 0, `exit ${code}\nstdout:\n${stdout}\nstderr:\n${stderr}`);

    const lines = stdout.split('\n').filter((l) => l.startsWith('|'));
    assert.ok(lines.length >= 3, `a table in:\n${stdout}`);
    const header = cellsOf(lines[0]);
    for (const column of ['endpoint', 'req/s', 'p50 ms', 'p99 ms', '× bare', 'peak RSS MB'])
      assert.ok(header.includes(column), `column ${column} in ${header.join(' | ')}`);
    const rows = new Map(lines.slice(2).map((l) => [cellsOf(l)[0], cellsOf(l)]));

    for (const label of [
      'bare node:http, same post JSON',
      'GET /v1/blog/posts/{id}',
      'POST /v1/blog/posts (5 KB body)',
    ]) {
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
});
