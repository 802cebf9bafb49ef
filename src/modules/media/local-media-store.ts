// MediaStore on a local folder: `<root>/<store handle>/<basename>`.
import { access, constants, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomLowerAlnum, sha256Hex } from '../../lib/crypto.js';
import { isValidHandle } from './image-refs.js';
import { isStoredFileName } from './image-variants.js';
import {
  listPosition,
  type MediaStore,
  type StoredFileInfo,
  type StoredObject,
  type StoredObjectPage,
} from './media-store.js';

// Temporary files are named `.upload-<host>-<pid>-<random>.tmp`: the writer's machine and
// process are in the name, so a file whose writer no longer runs on this machine is known to be
// abandoned at once (e.g. after kill -9), without waiting for it to grow old.
const HOST_TAG = sha256Hex(hostname()).slice(0, 8);
const TEMP_PATTERN = /^\.upload-.*\.tmp$/;
const OWNED_TEMP_PATTERN = /^\.upload-([0-9a-f]{8})-(\d+)-[a-z0-9]+\.tmp$/;

function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a temporary file's writer is known to be gone (a process of this machine that no longer runs). */
function abandonedByWriter(name: string): boolean {
  const owned = OWNED_TEMP_PATTERN.exec(name);
  return owned !== null && owned[1] === HOST_TAG && !processRuns(Number(owned[2]));
}

export class LocalMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  async put(handle: string, basename: string, data: Buffer): Promise<void> {
    const target = this.pathOf(handle, basename);
    const dir = join(this.root, handle);
    await mkdir(dir, { recursive: true });
    // Write a temporary name, flush it to disk, then rename: rename is atomic within a folder,
    // so a crash leaves at most a stray `.upload-*` file (never served: it fails the basename
    // pattern), not a truncated image under a served name.
    const temp = join(dir, `.upload-${HOST_TAG}-${process.pid}-${randomLowerAlnum(12)}.tmp`);
    const file = await open(temp, 'wx', 0o644);
    try {
      await file.writeFile(data);
      await file.datasync();
    } catch (err) {
      await file.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw err;
    }
    await file.close();
    try {
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async remove(handle: string, basename: string): Promise<void> {
    await rm(this.pathOf(handle, basename), { force: true });
  }

  async stat(handle: string, basename: string): Promise<StoredFileInfo | null> {
    try {
      const s = await stat(this.pathOf(handle, basename));
      return s.isFile() ? { bytes: s.size, modifiedAt: s.mtime } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async open(handle: string, basename: string) {
    // Open first and stat the open descriptor, so size and bytes belong to the same file even
    // if it is removed in between.
    let file;
    try {
      file = await open(this.pathOf(handle, basename), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const s = await file.stat();
      if (!s.isFile()) {
        await file.close();
        return null;
      }
      return { info: { bytes: s.size, modifiedAt: s.mtime }, stream: file.createReadStream() };
    } catch (err) {
      await file.close().catch(() => undefined);
      throw err;
    }
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  async list(after: string | null, limit: number): Promise<StoredObjectPage> {
    const objects: StoredObject[] = [];
    // Handles in the order of their positions ("ab/…" sorts after "ab-c/…"), as a bucket lists keys.
    const handles = (await this.entries(this.root)).filter(isValidHandle).sort((a, b) => (`${a}/` < `${b}/` ? -1 : 1));
    for (const handle of handles) {
      // Every position in this folder comes before `after`: skip it without reading it.
      if (after !== null && `${handle}/` < after && !after.startsWith(`${handle}/`)) continue;
      for (const basename of (await this.entries(join(this.root, handle))).filter(isStoredFileName)) {
        const position = listPosition(handle, basename);
        if (after !== null && position <= after) continue;
        if (objects.length === limit)
          return { objects, next: listPosition(objects[limit - 1].handle, objects[limit - 1].basename) };
        const info = await this.stat(handle, basename);
        if (info) objects.push({ handle, basename, modifiedAt: info.modifiedAt });
      }
    }
    return { objects, next: null };
  }

  async removeLeftovers(olderThan: Date): Promise<number> {
    let removed = 0;
    for (const handle of (await this.entries(this.root)).filter(isValidHandle)) {
      const dir = join(this.root, handle);
      for (const name of (await this.entries(dir)).filter((n) => TEMP_PATTERN.test(n))) {
        const path = join(dir, name);
        try {
          if (!abandonedByWriter(name) && (await stat(path)).mtimeMs >= olderThan.getTime()) continue;
          await rm(path, { force: true });
          removed++;
        } catch (err) {
          // Renamed into place or removed by its writer meanwhile: nothing left to clean.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
    }
    return removed;
  }

  async close(): Promise<void> {}

  /** Sorted names in a folder; a folder that does not exist (yet) is empty. */
  private async entries(dir: string): Promise<string[]> {
    try {
      return (await readdir(dir)).sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
        return [];
      throw err;
    }
  }

  /** Both parts are checked against the generated patterns (an image or a variant of one): no `..`, no slash, no other file. */
  private pathOf(handle: string, basename: string): string {
    if (!isValidHandle(handle) || !isStoredFileName(basename))
      throw new Error(`Invalid media path ${handle}/${basename}`);
    return join(this.root, handle, basename);
  }
}
