// The layering rules of docs/architecture.md, checked on the source itself: no import cycle
// anywhere under src/, the domain (src/modules) knows nothing of HTTP, and the layers below it
// (lib, cache, db, traffic, config) know nothing of either.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

interface MadgeResult {
  circular(): string[][];
  obj(): Record<string, string[]>;
}
const madge = createRequire(import.meta.url)('madge') as (path: string, config: object) => Promise<MadgeResult>;

const SRC = 'src';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier a file imports or re-exports (type-only imports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = text.matchAll(
    /^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm,
  );
  return [...found].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe('source layering', () => {
  it('no import cycle under src/ (type-only imports count)', async () => {
    const result = await madge(SRC, { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' });
    const graph = result.obj();
    // The graph must really follow the `.js` specifiers to their `.ts` files, or no cycle could ever show.
    assert.ok((graph['app.ts'] ?? []).includes('context.ts'), 'madge resolves the imports of src/app.ts');
    assert.deepEqual(result.circular(), []);
  });

  it('src/modules imports neither Fastify nor anything under src/http', () => {
    const offending: string[] = [];
    for (const file of sourceFiles(join(SRC, 'modules'))) {
      for (const spec of importsOf(file)) {
        if (/^(fastify|@fastify\/|fastify-)/.test(spec) || /(^|\/)http\//.test(spec))
          offending.push(`${relative(SRC, file)} → ${spec}`);
      }
    }
    assert.deepEqual(offending, []);
  });

  it('src/lib, src/cache, src/db, src/traffic and src/config import nothing from src/http or src/modules', () => {
    const offending: string[] = [];
    for (const dir of ['lib', 'cache', 'db', 'traffic', 'config']) {
      for (const file of sourceFiles(join(SRC, dir))) {
        for (const spec of importsOf(file)) {
          if (/^(fastify|@fastify\/)/.test(spec) || /(^|\/)(http|modules)\//.test(spec))
            offending.push(`${relative(SRC, file)} → ${spec}`);
        }
      }
    }
    assert.deepEqual(offending, []);
  });
});
