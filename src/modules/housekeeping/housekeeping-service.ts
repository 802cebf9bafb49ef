// Housekeeping: removes what has outlived its purpose (expired idempotency records, content
// fingerprints and delete tokens; upload leftovers; media files no image accounts for; files of
// deleted images whose removal failed). Every instance schedules it; the lease lets one run a
// pass at a time. Work goes in bounded batches, and the lease is renewed between them.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { PeriodicJob } from '../../lib/periodic.js';
import { removeOwedFiles, sweepOrphanFiles, type MediaStore } from '../media/index.js';
import {
  expiredContentFingerprints,
  expiredDeleteTokens,
  expiredIdempotencyRecords,
  expiredWebhookDeliveries,
  expiredWebhookEvents,
  type ExpiredRowBatch,
} from './expired-rows.js';
import { HousekeepingLease } from './housekeeping-lease.js';
import { DAY_MS } from '../../lib/time.js';

/** Upload temp files and unaccounted media files younger than this may still be in use. */
export const STALE_AFTER_MS = 60 * 60 * 1000;
/** Rows deleted per statement. */
export const ROW_BATCH = 500;
/** Files listed (and looked up in one query) per media batch. */
export const FILE_BATCH = 200;
// Per pass and kind, at most this many batches; what is left waits for the next pass.
const MAX_BATCHES = 200;

export interface HousekeepingCounts {
  idempotency_records: number;
  content_fingerprints: number;
  delete_tokens: number;
  upload_temp_files: number;
  orphaned_media_objects: number;
  failed_media_deletions: number;
  webhook_deliveries: number;
  webhook_events: number;
}

export type PassResult =
  | {
      ran: true;
      removed: HousekeepingCounts;
      /** Media removals the store refused (tried again next pass), and media kinds that could not run (the store could not be listed). */
      media_errors: number;
      /** false when the pass stopped early (the process is closing, the lease was lost) or a media kind could not run. */
      complete: boolean;
    }
  | { ran: false; reason: string };

/** Where scheduled passes report (the server's logger fits). */
export interface HousekeepingLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

class Stop extends Error {}

export class HousekeepingService {
  private readonly lease: HousekeepingLease;
  private readonly expiredEvents: ExpiredRowBatch;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: MediaStore,
    /** Between scheduled passes (HOUSEKEEPING_INTERVAL_S). */
    readonly intervalMs: number,
    /** Days events stay in the feed (EVENT_RETENTION_DAYS). */
    eventRetentionDays = 30,
  ) {
    this.expiredEvents = expiredWebhookEvents((now) => now - eventRetentionDays * DAY_MS);
    this.lease = new HousekeepingLease(db);
  }

  /** One pass, when no other instance is running one; counts what was removed, by kind. */
  async runPass(): Promise<PassResult> {
    const now = this.clock.now().getTime();
    if (!(await this.lease.acquire(now))) return { ran: false, reason: 'another instance is running housekeeping' };
    const removed: HousekeepingCounts = {
      idempotency_records: 0,
      content_fingerprints: 0,
      delete_tokens: 0,
      upload_temp_files: 0,
      orphaned_media_objects: 0,
      failed_media_deletions: 0,
      webhook_deliveries: 0,
      webhook_events: 0,
    };
    let mediaErrors = 0;
    let complete = true;
    try {
      await this.rows(expiredIdempotencyRecords, now, (n) => (removed.idempotency_records += n));
      await this.rows(expiredContentFingerprints, now, (n) => (removed.content_fingerprints += n));
      await this.rows(expiredDeleteTokens, now, (n) => (removed.delete_tokens += n));
      // Deliveries first: an event goes once no delivery refers to it.
      await this.rows(expiredWebhookDeliveries, now, (n) => (removed.webhook_deliveries += n));
      await this.rows(this.expiredEvents, now, (n) => (removed.webhook_events += n));
      // The media kinds last, each on its own: an object store that cannot be listed or written
      // costs its kind (counted in media_errors, complete: false), never the other kinds.
      const media = async (work: () => Promise<void>) => {
        try {
          await work();
        } catch (err) {
          if (err instanceof Stop) throw err;
          mediaErrors += 1;
          complete = false;
        }
      };
      await media(async () => {
        removed.upload_temp_files = await this.files.removeLeftovers(new Date(now - STALE_AFTER_MS));
      });
      await this.checkpoint();

      await media(async () => {
        for (let batch = 0; batch < MAX_BATCHES; batch++) {
          const outcome = await removeOwedFiles(this.db, this.files, now, ROW_BATCH);
          removed.failed_media_deletions += outcome.removed;
          mediaErrors += outcome.failed;
          await this.checkpoint();
          if (!outcome.more) break;
        }
      });

      // The sweep over stored files resumes where the last pass stopped, so a large bucket is
      // covered over several passes instead of listed whole every time.
      await media(async () => {
        let cursor = await this.lease.mediaCursor();
        for (let batch = 0; batch < MAX_BATCHES; batch++) {
          const outcome = await sweepOrphanFiles(this.db, this.files, now - STALE_AFTER_MS, cursor, FILE_BATCH);
          removed.orphaned_media_objects += outcome.removed;
          mediaErrors += outcome.failed;
          cursor = outcome.next;
          await this.checkpoint();
          await this.lease.saveMediaCursor(cursor);
          if (cursor === null) break;
        }
      });
    } catch (err) {
      if (!(err instanceof Stop)) throw err;
      complete = false;
    } finally {
      await this.lease.release();
    }
    return { ran: true, removed, media_errors: mediaErrors, complete };
  }

  /**
   * At start, before the first pass: upload leftovers of processes that died are removed at
   * once, without the lease (they are files of this machine, and removing one twice is harmless).
   */
  async removeLeftoversAtStart(log?: HousekeepingLog): Promise<void> {
    const count = await this.files.removeLeftovers(new Date(this.clock.now().getTime() - STALE_AFTER_MS));
    if (count > 0) log?.info({ upload_temp_files: count }, 'removed upload leftovers');
  }

  /** A scheduled pass (housekeepingJob): runs it and logs what it removed. */
  async scheduledPass(log?: HousekeepingLog): Promise<void> {
    const result = await this.runPass();
    if (result.ran) log?.info({ housekeeping: result }, 'housekeeping pass');
  }

  /** The process is closing: a pass under way stops at its next batch, and no pass starts. */
  halt(): void {
    this.stopping = true;
  }

  private async rows(batch: ExpiredRowBatch, now: number, count: (deleted: number) => void): Promise<void> {
    for (let i = 0; i < MAX_BATCHES; i++) {
      const deleted = await batch(this.db, now, ROW_BATCH);
      count(deleted);
      await this.checkpoint();
      if (deleted < ROW_BATCH) break;
    }
  }

  /** Between batches: let requests run, stop when closing, and keep (or notice losing) the lease. */
  private async checkpoint(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.stopping) throw new Stop();
    if (!(await this.lease.renew(this.clock.now().getTime()))) throw new Stop();
  }
}

/**
 * The server's housekeeping job (src/context.ts lists it): leftovers at start, then a pass every
 * interval, plus up to a tenth of it at random so instances started together (a deploy) spread
 * their passes; the lease lets one run at a time anyway.
 */
export function housekeepingJob(service: HousekeepingService): PeriodicJob {
  return {
    name: 'housekeeping',
    intervalMs: service.intervalMs,
    jitterMs: Math.floor(service.intervalMs / 10),
    atStart: (log) => service.removeLeftoversAtStart(log),
    run: (log) => service.scheduledPass(log),
    cancel: () => service.halt(),
  };
}
