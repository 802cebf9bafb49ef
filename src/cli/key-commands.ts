import type { AppContext } from '../context.js';
import { formatNullable, parseOffsetDateTime } from '../lib/time.js';
import {
  EXPIRY_WARNING_DAYS,
  isScope,
  KEY_ID_PATTERN,
  type KeySummary,
  type Scope,
  SCOPES,
} from '../modules/keys/index.js';
import {
  CommandError,
  parse,
  positiveInt,
  requirePositional,
  requireString,
  UsageError,
  type OptionValue,
} from './cli-support.js';

const RATE_FLAGS = {
  'read-per-minute': { type: 'string' as const },
  'write-per-minute': { type: 'string' as const },
  concurrency: { type: 'string' as const },
};

function rateValues(values: Record<string, OptionValue>) {
  return {
    readPerMinute: positiveInt('read-per-minute', values['read-per-minute']),
    writePerMinute: positiveInt('write-per-minute', values['write-per-minute']),
    concurrency: positiveInt('concurrency', values.concurrency),
  };
}

/** Key summaries never carry the secret (only its hash is kept anyway). */
function presentKey(key: KeySummary, offset: string) {
  return {
    ...key,
    expires_at: formatNullable(key.expires_at, offset),
    revoked_at: formatNullable(key.revoked_at, offset),
    created_at: formatNullable(key.created_at, offset),
  };
}

export async function keyCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  switch (sub) {
    case 'issue':
      return issueKey(ctx, args);
    case 'revoke': {
      const { positionals } = parse(args, {});
      const keyId = requireKeyId(positionals);
      if (!(await ctx.keys.revoke(keyId))) throw new CommandError(`no key with key_id "${keyId}"`);
      return { key_id: keyId, revoked: true };
    }
    case 'update':
      return updateKey(ctx, args);
    case 'list': {
      const { values } = parse(args, { store: { type: 'string' }, expiring: { type: 'boolean' } });
      if (values.expiring) return listExpiring(ctx, values.store);
      const store = await ctx.stores.findByHandle(requireString('store', values.store));
      if (!store) throw new CommandError(`no store with handle "${String(values.store)}"`);
      const keys = await ctx.keys.listForStore(store.id);
      return { store: store.handle, keys: keys.map((k) => presentKey(k, store.utcOffset)) };
    }
    default:
      throw new UsageError('key commands: issue, revoke, update, list');
  }
}

/**
 * The active keys expiring within EXPIRY_WARNING_DAYS, per store (the metric
 * blog_api_keys_expiring only counts them): every store that has one, by handle, or only `handle`'s.
 */
async function listExpiring(ctx: AppContext, handle: OptionValue) {
  let storeId: number | undefined;
  if (handle !== undefined) {
    const store = await ctx.stores.findByHandle(requireString('store', handle));
    if (!store) throw new CommandError(`no store with handle "${String(handle)}"`);
    storeId = store.id;
  }
  const found = await ctx.keys.listExpiring(ctx.clock.now().getTime(), EXPIRY_WARNING_DAYS, storeId);
  const byStore = new Map<number, KeySummary[]>();
  for (const { storeId: id, key } of found) {
    const keys = byStore.get(id) ?? [];
    keys.push(key);
    byStore.set(id, keys);
  }
  const stores = [];
  for (const [id, keys] of byStore) {
    const store = await ctx.stores.findById(id);
    if (store) stores.push({ store: store.handle, keys: keys.map((k) => presentKey(k, store.utcOffset)) });
  }
  stores.sort((a, b) => (a.store < b.store ? -1 : a.store > b.store ? 1 : 0));
  return { within_days: EXPIRY_WARNING_DAYS, keys: found.length, stores };
}

function requireKeyId(positionals: string[]): string {
  const keyId = requirePositional(positionals, 0, 'key_id');
  if (!KEY_ID_PATTERN.test(keyId)) throw new UsageError('key_id is 8 lowercase letters or digits');
  return keyId;
}

async function issueKey(ctx: AppContext, args: string[]) {
  const { values } = parse(args, {
    store: { type: 'string' },
    app: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in-days': { type: 'string' },
    'no-expiry': { type: 'boolean' },
    ...RATE_FLAGS,
  });
  const store = await ctx.stores.findByHandle(requireString('store', values.store));
  const application = requireString('app', values.app);
  const scopes = requireString('scopes', values.scopes)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new UsageError(
      `--scopes takes a comma-separated list of ${SCOPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  }
  if (values['no-expiry'] && values['expires-in-days'] !== undefined)
    throw new UsageError('use either --expires-in-days or --no-expiry');
  if (!store) throw new CommandError(`no store with handle "${String(values.store)}"`);
  const issued = await ctx.keys.issue({
    storeId: store.id,
    application,
    scopes: scopes as Scope[],
    expiresInDays: values['no-expiry'] ? null : positiveInt('expires-in-days', values['expires-in-days']),
    ...rateValues(values),
  });
  return {
    key: issued.key,
    key_id: issued.keyId,
    scopes: issued.scopes,
    expires_at: formatNullable(issued.expiresAt, store.utcOffset),
  };
}

async function updateKey(ctx: AppContext, args: string[]) {
  const { values, positionals } = parse(args, { 'expires-at': { type: 'string' }, ...RATE_FLAGS });
  const keyId = requireKeyId(positionals);
  let expiresAt: number | null | undefined;
  const raw = values['expires-at'];
  if (typeof raw === 'string') {
    if (raw === 'never') expiresAt = null;
    else {
      const parsed = parseOffsetDateTime(raw);
      if (parsed === null)
        throw new UsageError(
          '--expires-at takes an ISO 8601 time with an offset (e.g. 2027-01-01T00:00:00+08:00) or "never"',
        );
      expiresAt = parsed;
    }
  }
  const changes = { expiresAt, ...rateValues(values) };
  if (Object.values(changes).every((v) => v === undefined))
    throw new UsageError('key update: give --expires-at or a rate setting');
  const updated = await ctx.keys.update(keyId, changes);
  if (!updated) throw new CommandError(`no key with key_id "${keyId}"`);
  // Times at the offset of the key's store, as `key issue` and `key list` print them.
  const store = await ctx.stores.findById(updated.storeId);
  if (!store) throw new CommandError(`the store of key_id "${keyId}" is gone`);
  return presentKey(updated.key, store.utcOffset);
}
