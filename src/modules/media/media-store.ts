// Where image files live. The service only speaks this interface, so a bucket-backed store can
// replace the local folder without touching upload, delete or serving logic.
import type { Readable } from 'node:stream';

export interface StoredFileInfo {
  bytes: number;
  modifiedAt: Date;
}

export interface MediaStore {
  /**
   * Stores a complete file under `<handle>/<basename>`. Must be all-or-nothing: a reader never
   * sees a partly written file under the final name, even after a crash.
   */
  put(handle: string, basename: string, data: Buffer): Promise<void>;
  /** Removes the file; a file that is already gone counts as removed. */
  remove(handle: string, basename: string): Promise<void>;
  /** Size and time of the file, or null when there is none. */
  stat(handle: string, basename: string): Promise<StoredFileInfo | null>;
  /** A stream of the file's bytes, or null when there is none. */
  open(handle: string, basename: string): Promise<{ info: StoredFileInfo; stream: Readable } | null>;
  /** Resolves when the store can be written to now; rejects with the reason otherwise (readiness). */
  check(): Promise<void>;
}
