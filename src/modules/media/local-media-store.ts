// MediaStore on a local folder: `<root>/<store handle>/<basename>`.
import { access, constants, mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomLowerAlnum } from '../../lib/crypto.js';
import { isValidBasename, isValidHandle } from './image-refs.js';
import type { MediaStore, StoredFileInfo } from './media-store.js';

export class LocalMediaStore implements MediaStore {
  constructor(private readonly root: string) {}

  async put(handle: string, basename: string, data: Buffer): Promise<void> {
    const target = this.pathOf(handle, basename);
    const dir = join(this.root, handle);
    await mkdir(dir, { recursive: true });
    // Write a temporary name, flush it to disk, then rename: rename is atomic within a folder,
    // so a crash leaves at most a stray `.upload-*` file (never served: it fails the basename
    // pattern), not a truncated image under a served name.
    const temp = join(dir, `.upload-${randomLowerAlnum(16)}.tmp`);
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

  /** Both parts are checked against the generated patterns: no `..`, no slash, no other file. */
  private pathOf(handle: string, basename: string): string {
    if (!isValidHandle(handle) || !isValidBasename(basename)) throw new Error(`Invalid media path ${handle}/${basename}`);
    return join(this.root, handle, basename);
  }
}
