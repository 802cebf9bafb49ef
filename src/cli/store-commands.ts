import type { AppContext } from '../context.js';
import { isValidOffset } from '../lib/time.js';
import {
  allowedOriginsColumn,
  HANDLE_PATTERN,
  parseAllowedOrigins,
  presentFeatures,
  presentLimits,
  type Store,
  type StoreChanges,
} from '../modules/stores/index.js';
import {
  CommandError,
  onOff,
  parse,
  positiveInt,
  requirePositional,
  requireString,
  UsageError,
  type Options,
} from './cli-support.js';

export function presentStore(store: Store) {
  return {
    handle: store.handle,
    name: store.name,
    features: presentFeatures(store.features),
    certified: store.certified,
    writes_paused: store.writesPaused,
    limits: presentLimits(store.limits),
    quotas: { posts_per_day: store.quotas.postsPerDay, images_per_day: store.quotas.imagesPerDay },
    storefront_base_url: store.storefrontBaseUrl,
    utc_offset: store.utcOffset,
    allowed_origins: store.allowedOrigins,
  };
}

export async function storeCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  switch (sub) {
    case 'create':
      return createStore(ctx, args);
    case 'update':
      return updateStore(ctx, args);
    case 'show': {
      const { positionals } = parse(args, {});
      const store = await ctx.stores.findByHandle(requirePositional(positionals, 0, 'store handle'));
      if (!store) throw new CommandError(`no store with handle "${positionals[0]}"`);
      return presentStore(store);
    }
    default:
      throw new UsageError('store commands: create, update, show');
  }
}

async function createStore(ctx: AppContext, args: string[]) {
  const { values } = parse(args, {
    handle: { type: 'string' },
    name: { type: 'string' },
    'no-categories': { type: 'boolean' },
    'no-media': { type: 'boolean' },
    uncertified: { type: 'boolean' },
    'no-emoji': { type: 'boolean' },
  });
  const handle = requireString('handle', values.handle);
  if (!HANDLE_PATTERN.test(handle))
    throw new UsageError('--handle takes 1–63 lowercase letters, digits and inner hyphens');
  if (await ctx.stores.findByHandle(handle)) throw new CommandError(`a store with handle "${handle}" already exists`);
  const store = await ctx.stores.create({
    handle,
    name: requireString('name', values.name),
    categories: !values['no-categories'],
    media: !values['no-media'],
    certified: !values.uncertified,
    emoji: !values['no-emoji'],
  });
  return presentStore(store);
}

const NUMBER_FLAGS: Array<[flag: string, column: keyof StoreChanges]> = [
  ['posts-per-day', 'posts_per_day'],
  ['images-per-day', 'images_per_day'],
  ['body-max-bytes', 'body_max_bytes'],
  ['title-max-length', 'title_max_length'],
  ['image-max-bytes', 'image_max_bytes'],
  ['image-max-pixels', 'image_max_pixels'],
  ['image-max-width', 'image_max_width'],
  ['image-max-gif-frames', 'image_max_gif_frames'],
  ['image-max-total-pixels', 'image_max_total_pixels'],
  ['category-max-depth', 'category_max_depth'],
];
const SWITCH_FLAGS: Array<[flag: string, column: keyof StoreChanges]> = [
  ['categories', 'categories_enabled'],
  ['media', 'media_enabled'],
  ['certified', 'certified'],
  ['writes-paused', 'writes_paused'],
  ['emoji', 'emoji_allowed'],
  ['webhooks', 'webhooks_enabled'],
];

async function updateStore(ctx: AppContext, args: string[]) {
  const flags = [
    ...[...NUMBER_FLAGS, ...SWITCH_FLAGS].map(([flag]) => flag),
    'name',
    'storefront-base-url',
    'utc-offset',
    'allowed-origins',
  ];
  const options: Options = Object.fromEntries(flags.map((flag) => [flag, { type: 'string' as const }] as const));
  const { values, positionals } = parse(args, options);
  const handle = requirePositional(positionals, 0, 'store handle');
  const changes: Record<string, unknown> = {};
  for (const [flag, column] of NUMBER_FLAGS) {
    const n = positiveInt(flag, values[flag], { allowZero: flag.endsWith('per-day') });
    if (n !== undefined) changes[column] = n;
  }
  for (const [flag, column] of SWITCH_FLAGS) {
    const v = onOff(flag, values[flag]);
    if (v !== undefined) changes[column] = v;
  }
  if (values.name !== undefined) changes.name = requireString('name', values.name);
  const base = values['storefront-base-url'];
  if (typeof base === 'string') {
    if (base === 'default') changes.storefront_base_url = null;
    else if (!/^https?:\/\/[^\s]+$/.test(base))
      throw new UsageError('--storefront-base-url takes an http(s) URL or "default"');
    else changes.storefront_base_url = base.replace(/\/+$/, '');
  }
  const offset = values['utc-offset'];
  if (typeof offset === 'string') {
    if (!isValidOffset(offset)) throw new UsageError('--utc-offset takes ±hh:mm, e.g. +08:00');
    changes.utc_offset = offset;
  }
  const origins = values['allowed-origins'];
  if (typeof origins === 'string') {
    const parsed = parseAllowedOrigins(origins);
    if ('problem' in parsed)
      throw new UsageError(
        `--allowed-origins takes comma-separated origins (scheme://host[:port]) or "none": ${parsed.problem}`,
      );
    changes.allowed_origins = allowedOriginsColumn(parsed.origins);
  }
  if (Object.keys(changes).length === 0) throw new UsageError('store update: give at least one setting to change');
  const store = await ctx.stores.update(handle, changes as StoreChanges);
  if (!store) throw new CommandError(`no store with handle "${handle}"`);
  return presentStore(store);
}
