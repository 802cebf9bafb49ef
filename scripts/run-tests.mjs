#!/usr/bin/env node
// Runs test/**/*.test.ts with node's built-in test runner (TypeScript via tsx).
// The files are collected here rather than by `--test` globs, so the tiers and filters below apply.
//
// Two tiers: the fast tier (default) leaves out the slow folders below; `--all` runs everything.
// Both start with `npm run lint` (ESLint and Prettier's check) unless path filters are given or
// `--no-lint` is passed; a lint failure does not stop the tests, it fails the run at the end.
// Usage: npm test [-- <path filter substring> ...]      (fast tier)
//        npm run test:all [-- <path filter substring> ...]
//        npm test -- --no-lint                          (the tests alone)
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { spawnSync } from 'node:child_process';

/** Folders under test/ whose suites start processes, browsers or load: `test:all` only. */
const SLOW_FOLDERS = ['bench', 'browser', 'fleet', 'crash', 'fuzz', 'deploy', 'sdk-package', 'fault', 'backup'];

function collect(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const args = process.argv.slice(2);
const all = args.includes('--all');
const lint = !args.includes('--no-lint');
const filters = args.filter((a) => a !== '--all' && a !== '--no-lint');
const isSlow = (file) => SLOW_FOLDERS.some((folder) => file.startsWith(`test${sep}${folder}${sep}`));
const files = collect('test')
  .map((f) => relative('.', f))
  .filter((f) => all || !isSlow(f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('No test files matched.');
  process.exit(1);
}

// Lint only a whole run: a run of a few files is someone working on them, and ESLint's type-aware
// rules take half a minute over the whole tree.
let lintFailed = false;
if (lint && filters.length === 0) {
  const started = Date.now();
  const linted = spawnSync('npm', ['run', 'lint'], { stdio: 'inherit' });
  lintFailed = linted.status !== 0;
  console.log(`npm run lint: ${lintFailed ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s`);
}

// Suites that measure the machine's speed (Lighthouse's performance score) run after the others,
// one at a time: beside another suite's servers and browsers the score measures that suite's
// load instead of the page (Lighthouse asks for a quiet machine).
const ALONE = [`test${sep}browser${sep}lighthouse.test.ts`];
const together = files.filter((f) => !ALONE.includes(f));
const alone = files.filter((f) => ALONE.includes(f));
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const runFiles = (list, n) =>
  list.length === 0
    ? 0
    : (spawnSync(
        process.execPath,
        ['--import', 'tsx', '--test', `--test-concurrency=${n}`, '--test-reporter=spec', ...list],
        { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
      ).status ?? 1);
const status = Math.max(runFiles(together, concurrency), runFiles(alone, '1'));
if (lintFailed) {
  console.error('npm run lint failed (its output is above the tests); `npm run format` fixes formatting.');
}
process.exit(lintFailed ? 1 : status);
