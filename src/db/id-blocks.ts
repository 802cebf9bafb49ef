// Ids from a PostgreSQL sequence, taken a block at a time. A statement that writes a row and
// rows that refer to it (a post, its category links, its audit event) in one round trip must
// know the id before it is sent; asking the sequence for one value per row would cost the round
// trip the statement saves. Each block is one query for BLOCK_SIZE ids.
//
// The ids are still unique (the sequence hands each value out once), but not in creation order
// across processes, and the ids of a block a process had not used when it stopped are skipped,
// as a rolled-back insert skips its id. Nothing orders by id alone: lists order by creation time
// with the id only breaking ties.
import { sql } from 'kysely';
import type { Db } from './database.js';

export const BLOCK_SIZE = 100;

export class IdBlocks {
  private ids: number[] = [];
  private next = 0;
  private refill: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    /** `table.column` of a serial column, whose sequence gives the ids. */
    private readonly table: string,
    private readonly column = 'id',
    private readonly size = BLOCK_SIZE,
  ) {}

  async take(): Promise<number> {
    while (this.next >= this.ids.length) {
      // Requests that find the block used up together wait for one refill.
      this.refill ??= this.fetchBlock().finally(() => {
        this.refill = null;
      });
      await this.refill;
    }
    return this.ids[this.next++];
  }

  private async fetchBlock(): Promise<void> {
    const { rows } = await sql<{ id: number }>`
      SELECT nextval(pg_get_serial_sequence(${this.table}, ${this.column})) AS id FROM generate_series(1, ${this.size})`.execute(
      this.db,
    );
    this.ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    this.next = 0;
  }
}
