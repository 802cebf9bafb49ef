// Builds dist/esm (ES modules) and dist/cjs (CommonJS), each with its declarations and source
// maps (which point into src/, shipped beside them). Run by `npm run build` and before `npm pack`.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const project of ['tsconfig.json', 'tsconfig.cjs.json']) {
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, project)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// The package is "type": "module"; this marks the .js and .d.ts files under dist/cjs as CommonJS.
writeFileSync(join(root, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');
