#!/usr/bin/env node
// Runs test/**/*.test.ts with node's built-in test runner (TypeScript via tsx).
// The files are collected here rather than by `--test` globs, so the tiers and filters below apply.
//
// Two tiers: the fast tier (default) leaves out the slow folders below; `--all` runs everything.
// Usage: npm test [-- <path filter substring> ...]      (fast tier)
//        npm run test:all [-- <path filter substring> ...]
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
const filters = args.filter((a) => a !== '--all');
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
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
