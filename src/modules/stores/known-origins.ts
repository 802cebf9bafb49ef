// Whether any store allows an origin: what a CORS preflight can know. A browser's preflight
// carries no key, so it cannot name a store; it is allowed for an origin some store lists, and
// the GET that follows, which names its store by its key, is answered with
// Access-Control-Allow-Origin only when that store lists it (docs/content-api.md, "CORS").
// The set is read again when older than REFRESH_MS, the time the operator's changes take to apply.
import type { Db } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { selectAllowedOrigins } from './origin-repository.js';

export const KNOWN_ORIGINS_REFRESH_MS = 5_000;

export class KnownOrigins {
  private origins: Set<string> | null = null;
  private readAt = 0;
  private reading: Promise<Set<string>> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async has(origin: string): Promise<boolean> {
    return (await this.current()).has(origin);
  }

  private async current(): Promise<Set<string>> {
    const now = this.clock.now().getTime();
    if (this.origins && now - this.readAt < KNOWN_ORIGINS_REFRESH_MS) return this.origins;
    // One read at a time, however many preflights arrive while it runs.
    this.reading ??= selectAllowedOrigins(this.db)
      .then((list) => {
        this.origins = new Set(list);
        this.readAt = now;
        return this.origins;
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }
}
