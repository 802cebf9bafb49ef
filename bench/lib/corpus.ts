// The benchmark's create bodies: 64 store-blog articles in mixed English and Traditional Chinese
// (bench/corpus/README.md). Every create row and the create ceiling send these.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_FILE = join(import.meta.dirname, '..', 'corpus', 'bench-bodies.json');

let loaded: string[] | null = null;

/** The 64 bodies, in the file's order. */
export function corpusBodies(): string[] {
  if (loaded) return loaded;
  const parsed = JSON.parse(readFileSync(CORPUS_FILE, 'utf8')) as { bodies?: unknown };
  const bodies = parsed.bodies;
  if (!Array.isArray(bodies) || bodies.length === 0 || !bodies.every((b) => typeof b === 'string'))
    throw new Error(`${CORPUS_FILE}: expected {"bodies": [string, …]}`);
  loaded = bodies as string[];
  return loaded;
}

/** The bodies' mean size in KB (of UTF-8), rounded, for the rows' labels. */
export function corpusKb(): number {
  const bodies = corpusBodies();
  const bytes = bodies.reduce((sum, b) => sum + Buffer.byteLength(b), 0) / bodies.length;
  return Math.round(bytes / 1024);
}
