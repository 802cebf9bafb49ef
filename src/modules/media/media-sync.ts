// `blog-api media sync --from-dir <dir>`: copies the file of every live image the database
// knows from a local media folder into the configured store; the way from the embedded local
// folder to object storage. Safe to repeat: a file the store already holds whole is skipped.
import type { Readable } from 'node:stream';
import type { Db } from '../../db/database.js';
import { liveImagesAfter } from './media-repository.js';
import type { MediaStore } from './media-store.js';

export interface SyncCounts {
  /** Images known to the database (live ones). */
  images: number;
  copied: number;
  /** Already in the store with the same size. */
  present: number;
  /** Not in the source folder either: these images have lost their file. */
  missing: number;
  /** The store refused the copy (run the sync again). */
  failed: number;
}

const PAGE = 200;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function syncMediaFiles(
  db: Db,
  source: MediaStore,
  target: MediaStore,
  onProblem: (problem: { image_id: string; path: string; issue: string }) => void = () => undefined,
): Promise<SyncCounts> {
  const counts: SyncCounts = { images: 0, copied: 0, present: 0, missing: 0, failed: 0 };
  let afterId = '';
  for (;;) {
    const rows = await liveImagesAfter(db, afterId, PAGE);
    for (const row of rows) {
      counts.images++;
      const path = `${row.handle}/${row.basename}`;
      try {
        const opened = await source.open(row.handle, row.basename);
        const existing = await target.stat(row.handle, row.basename);
        if (existing && (!opened || existing.bytes === opened.info.bytes)) {
          opened?.stream.destroy();
          counts.present++;
          continue;
        }
        if (!opened) {
          counts.missing++;
          onProblem({ image_id: row.id, path, issue: 'not in the source folder nor in the store' });
          continue;
        }
        await target.put(row.handle, row.basename, await readAll(opened.stream));
        counts.copied++;
      } catch (err) {
        counts.failed++;
        onProblem({ image_id: row.id, path, issue: err instanceof Error ? err.message : String(err) });
      }
    }
    if (rows.length < PAGE) return counts;
    afterId = rows[rows.length - 1].id;
  }
}
