// Whether another SQLite connection may have committed, told without a statement. In WAL mode
// every commit, by any connection or process, rewrites the header of the WAL index (the
// database's `-shm` file, a documented format: https://www.sqlite.org/walformat.html): its
// change counter, its last valid frame and, when the WAL restarts, its salts. The header is
// kept twice, written one copy after the other, so a reader that finds both copies equal has
// read a header no commit was halfway through writing.
//
// `PRAGMA data_version`, read on every request so that a key revoked by another process is
// refused on the very next one, starts a read transaction (lock and unlock calls on the `-shm`
// file and a check of the database file): a twentieth of a cached read (docs/performance.md).
// Reading the header's 96 bytes is one system call; the pragma runs only when they changed.
import { closeSync, openSync, readSync } from 'node:fs';

const HEADER_BYTES = 96;
const COPY_BYTES = 48;

export class WalIndexHeader {
  private readonly seen = Buffer.alloc(HEADER_BYTES);
  private readonly read = Buffer.alloc(HEADER_BYTES);
  private known = false;

  private constructor(private fd: number | null) {}

  /** The WAL index of the database at `file`; null when it has none (not WAL, in memory). */
  static open(file: string): WalIndexHeader | null {
    try {
      return new WalIndexHeader(openSync(`${file}-shm`, 'r'));
    } catch {
      return null;
    }
  }

  /**
   * True when the header is the one read at the last call that returned false: no connection
   * has committed since. False otherwise (a commit, a header being written, a read that failed):
   * the caller then asks SQLite, after this read, so what it learns is at least this new.
   */
  unchanged(): boolean {
    if (this.fd === null) return false;
    let bytes: number;
    try {
      bytes = readSync(this.fd, this.read, 0, HEADER_BYTES, 0);
    } catch {
      return false;
    }
    const whole = bytes === HEADER_BYTES && this.read.compare(this.read, 0, COPY_BYTES, COPY_BYTES, HEADER_BYTES) === 0;
    if (whole && this.known && this.read.equals(this.seen)) return true;
    this.known = whole;
    if (whole) this.read.copy(this.seen);
    return false;
  }

  /** Forgets the header seen: the next call returns false (the caller's read of SQLite failed). */
  forget(): void {
    this.known = false;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
