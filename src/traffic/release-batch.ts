/*
 * In-flight slot releases held for a moment and sent together: inside the same key's next
 * admission (its script removes them before it counts), or else at the end of the event loop's
 * turn, one ZREM per key.
 *
 * Why: under load a process finishes many answers of one key in each turn, and a ZREM for each
 * is a Redis command for each (built, written, its reply parsed, its promise settled). Carried by
 * the next admission, a release costs no command of its own: a cached read on PostgreSQL then
 * sends one command instead of two, for about 4-7 % less CPU (docs/performance.md).
 *
 * Order: a release reaches Redis before any admission of its key asked for after it (it rides in
 * that admission's script, or was sent ahead of it on the same connection), so a client that
 * waits for its answer before sending again finds its slot free, as when each release went out
 * on its own. Releases are never held past the turn in which they were made.
 */

/** Releases taken by a command that carries them; `done` once that command has settled either way. */
export interface CarriedReleases {
  readonly slotIds: readonly string[];
  readonly done: () => void;
}

/** Sends releases of one key; never rejects (a failed release is kept by the sender). */
export type SendReleases = (keyId: string, slotIds: string[]) => Promise<void>;

/** Lua's unpack takes a bounded number of values; more than this go out as a ZREM of their own. */
export const MAX_CARRIED = 500;

interface Queued {
  slotIds: string[];
  /** Settles every release queued here: one promise for the whole group, not one per release. */
  settled: Promise<void>;
  settle: () => void;
}

export interface ReleaseBatch {
  /** Queues a release; resolves once the command that carried it has settled (never rejects). */
  add(keyId: string, slotId: string): Promise<void>;
  /** The key's queued releases, for a command about to be sent that carries them (null: none). */
  take(keyId: string): CarriedReleases | null;
  /** Sends the queued releases (of one key, or of all) now. */
  flush(keyId?: string): Promise<void>;
}

export function createReleaseBatch(send: SendReleases): ReleaseBatch {
  const queued = new Map<string, Queued>();
  let scheduled = false;

  const endOfTurn = (): void => {
    scheduled = false;
    void flush();
  };

  function add(keyId: string, slotId: string): Promise<void> {
    let group = queued.get(keyId);
    if (!group) {
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => (settle = resolve));
      group = { slotIds: [], settled, settle };
      queued.set(keyId, group);
    }
    group.slotIds.push(slotId);
    if (!scheduled) {
      scheduled = true;
      setImmediate(endOfTurn);
    }
    return group.settled;
  }

  function take(keyId: string): CarriedReleases | null {
    const group = queued.get(keyId);
    if (!group) return null;
    if (group.slotIds.length > MAX_CARRIED) {
      // Sent now, ahead of the command that asked, so the order above still holds.
      void flush(keyId);
      return null;
    }
    queued.delete(keyId);
    return { slotIds: group.slotIds, done: group.settle };
  }

  function flush(keyId?: string): Promise<void> {
    const keys = keyId === undefined ? [...queued.keys()] : queued.has(keyId) ? [keyId] : [];
    return Promise.all(
      keys.map((key) => {
        const group = queued.get(key)!;
        queued.delete(key);
        return send(key, group.slotIds).then(group.settle);
      }),
    ).then(() => undefined);
  }

  return { add, take, flush };
}
