// The layering rules of docs/architecture.md, checked on the source itself: no import cycle
// anywhere under src/, none between the modules of src/modules either, a module reached only
// through its index.ts, the domain (src/modules) knowing nothing of HTTP, and the layers below it
// (lib, cache, db, traffic, config) knowing nothing of either.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, relative, sep } from 'node:path';

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

  it('a module imports another only through its index.ts, and no two modules import each other, even by a longer way round', () => {
    const modulesDir = join(SRC, 'modules');
    const past: string[] = [];
    const uses = new Map<string, Set<string>>();
    for (const file of sourceFiles(modulesDir)) {
      const from = relative(modulesDir, file).split(sep)[0]!;
      for (const spec of importsOf(file)) {
        if (!spec.startsWith('.')) continue;
        const target = normalize(join(dirname(file), spec));
        const inside = relative(modulesDir, target);
        if (inside.startsWith('..')) continue;
        const to = inside.split(sep)[0]!;
        if (to === from) continue;
        if (inside !== join(to, 'index.js')) past.push(`${relative(SRC, file)} → ${spec}`);
        uses.set(from, (uses.get(from) ?? new Set()).add(to));
      }
    }
    assert.deepEqual(past, [], 'imports past another module’s index.ts');
    // Depth-first search for a cycle in the module graph.
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (mod: string, path: string[]): void => {
      if (state.get(mod) === 'done') return;
      if (state.get(mod) === 'open') {
        cycles.push([...path.slice(path.indexOf(mod)), mod].join(' → '));
        return;
      }
      state.set(mod, 'open');
      for (const next of uses.get(mod) ?? []) visit(next, [...path, mod]);
      state.set(mod, 'done');
    };
    for (const mod of uses.keys()) visit(mod, []);
    assert.deepEqual(cycles, [], 'module cycles');
    assert.ok(uses.size >= 8, 'the module graph was read');
  });
});
