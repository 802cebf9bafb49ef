import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppContext } from '../context.js';
import { SCOPES } from '../modules/keys/index.js';

export interface DemoOutcome {
  created: boolean;
  keyFile: string | null;
  key?: string;
}

/**
 * First start on a new embedded database: a demo store (handle `demo`, every feature on,
 * certified) and one key with every scope, written once to demo-key.txt (mode 0600) beside
 * the database. A PostgreSQL database never gets a demo store.
 */
export async function ensureDemoStore(ctx: AppContext): Promise<DemoOutcome> {
  const database = ctx.config.database;
  if (database.engine !== 'sqlite' || database.file === ':memory:') return { created: false, keyFile: null };
  const keyFile = join(dirname(database.file), 'demo-key.txt');
  if ((await ctx.stores.count()) > 0) return { created: false, keyFile: existsSync(keyFile) ? keyFile : null };
  const store = await ctx.stores.create({ handle: 'demo', name: 'Demo Store' });
  const issued = await ctx.keys.issue({ storeId: store.id, application: 'demo', scopes: [...SCOPES] });
  writeFileSync(keyFile, `${issued.key}\n`, { mode: 0o600 });
  return { created: true, keyFile, key: issued.key };
}
