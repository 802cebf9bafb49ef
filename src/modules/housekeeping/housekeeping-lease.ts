// A lease row in the database: whoever holds it (and only they) runs a housekeeping pass, so a
// fleet of instances never sweeps twice at once. Each step is one conditional statement, which
// both engines settle atomically across processes.
import { hostname } from 'node:os';
import type { Db } from '../../db/database.js';
import { randomLowerAlnum } from '../../lib/crypto.js';

export const LEASE_NAME = 'housekeeping';
/**
 * How long a holder may go without renewing. A pass renews after every batch; a holder that
 * dies mid-pass blocks the others for at most this long.
 */
export const LEASE_TTL_MS = 5 * 60 * 1000;

export class HousekeepingLease {
  /** Who holds it, for an operator reading the table: host, process and a random tag. */
  readonly holder = `${hostname()}:${process.pid}:${randomLowerAlnum(8)}`;

  constructor(private readonly db: Db) {}

  /** Takes the lease when it is free or expired; false while another holder's lease runs. */
  async acquire(now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('housekeeping_lease')
      .values({ name: LEASE_NAME, holder: this.holder, expires_at: now + LEASE_TTL_MS, media_cursor: null })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const taken = await this.db
      .updateTable('housekeeping_lease')
      .set({ holder: this.holder, expires_at: now + LEASE_TTL_MS })
      .where('name', '=', LEASE_NAME)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /** Extends the lease; false when it expired and someone else took it (stop at once). */
  async renew(now: number): Promise<boolean> {
    const renewed = await this.db
      .updateTable('housekeeping_lease')
      .set({ expires_at: now + LEASE_TTL_MS })
      .where('name', '=', LEASE_NAME)
      .where('holder', '=', this.holder)
      .executeTakeFirst();
    return Number(renewed.numUpdatedRows) === 1;
  }

  /** Frees the lease for the next pass, whoever runs it. */
  async release(): Promise<void> {
    await this.db
      .updateTable('housekeeping_lease')
      .set({ expires_at: 0 })
      .where('name', '=', LEASE_NAME)
      .where('holder', '=', this.holder)
      .execute();
  }

  /** Where the media sweep goes on (kept with the lease: only the holder moves it). */
  async mediaCursor(): Promise<string | null> {
    const row = await this.db
      .selectFrom('housekeeping_lease')
      .select('media_cursor')
      .where('name', '=', LEASE_NAME)
      .executeTakeFirst();
    return row?.media_cursor ?? null;
  }

  async saveMediaCursor(cursor: string | null): Promise<void> {
    await this.db
      .updateTable('housekeeping_lease')
      .set({ media_cursor: cursor })
      .where('name', '=', LEASE_NAME)
      .where('holder', '=', this.holder)
      .execute();
  }
}
