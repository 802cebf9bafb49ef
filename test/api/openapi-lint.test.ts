// The served OpenAPI document passes Redocly (recommended) and Spectral (spectral:oas, with the
// one rule .spectral.yaml turns off and explains) with no error and no warning.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { engineTargets } from '../helpers/engines.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** Runs a linter; a non-zero exit still has the report on stdout. */
async function lint(command: string, args: string[]): Promise<string> {
  try {
    return (await run(bin(command), args, { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 })).stdout;
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

describe('OpenAPI lint of the served document', () => {
  let t: TestApp;
  let dir: string;
  let file: string;
  before(async () => {
    t = await startTestApp((await engineTargets())[0]);
    const { key } = await t.tenant();
    const res = await t.request({ method: 'GET', url: '/v1/openapi.json', key });
    assert.equal(res.statusCode, 200);
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, res.body);
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('Redocly, recommended ruleset: 0 errors, 0 warnings', async () => {
    const out = await lint('redocly', ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format=json']);
    const report = JSON.parse(out.slice(out.indexOf('{')));
    const problems = report.problems.map(
      (p: { ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }) =>
        `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  });

  it('Spectral, spectral:oas: 0 errors, 0 warnings', async () => {
    const out = await lint('spectral', [
      'lint',
      file,
      '--ruleset',
      join(ROOT, '.spectral.yaml'),
      '--format',
      'json',
      '--quiet',
    ]);
    const problems = JSON.parse(out.slice(out.indexOf('['))).map(
      (p: { code: string; message: string; path: string[] }) => `${p.code}: ${p.message} at ${p.path.join('.')}`,
    );
    assert.deepEqual(problems, []);
  });
});
