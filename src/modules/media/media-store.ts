// Where image files live. The service only speaks this interface, so the local folder and an
// S3-compatible bucket are interchangeable without touching upload, delete or serving logic.
import type { Readable } from 'node:stream';

export interface StoredFileInfo {
  bytes: number;
  modifiedAt: Date;
}

/** One stored image file (an image or a variant of one), as housekeeping lists them. */
export interface StoredObject {
  handle: string;
  basename: string;
  modifiedAt: Date;
}

export interface StoredObjectPage {
  objects: StoredObject[];
  /** Position to list on from (pass as `after`), or null when the listing reached the end. */
  next: string | null;
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
  /**
   * Resolves when the store answers now; rejects with the reason otherwise (readiness). The local
   * folder checks that it may write there; a bucket, that it exists and accepts the credentials
   * (HeadBucket): nothing is written, so a user allowed to read but not write passes.
   */
  check(): Promise<void>;
  /**
   * Up to `limit` stored image files (images and their variants) in the order of
   * `<handle>/<basename>`, starting after the position `after` (null: from the start). Anything
   * that is not an image or variant file is skipped.
   */
  list(after: string | null, limit: number): Promise<StoredObjectPage>;
  /**
   * Removes what interrupted writes left behind (partial files under temporary names) that is
   * older than `olderThan` or provably abandoned; returns how many were removed.
   */
  removeLeftovers(olderThan: Date): Promise<number>;
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void>;
}

/** The position of a file in a listing (see MediaStore.list). */
export function listPosition(handle: string, basename: string): string {
  return `${handle}/${basename}`;
}
