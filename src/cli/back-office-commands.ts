// Back-office operations: product links of posts (not offered by the API; audited as its writes
// are, by posts' ProductLinks), and renaming, moving and deleting categories (the same service as
// PATCH and DELETE /v1/blog/categories/{id}).
import type { AppContext } from '../context.js';
import { ApiError } from '../lib/api-error.js';
import type { Actor } from '../modules/audit/index.js';
import { ProductLinks } from '../modules/posts/index.js';
import type { Store } from '../modules/stores/index.js';
import { CommandError, parse, requirePositional, UsageError } from './cli-support.js';

async function storeOf(ctx: AppContext, handle: string): Promise<Store> {
  const store = await ctx.stores.findByHandle(handle);
  if (!store) throw new CommandError(`no store with handle "${handle}"`);
  return store;
}

function idArg(positionals: string[], index: number, what: string): number {
  const raw = requirePositional(positionals, index, what);
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw new UsageError(`${what} must be a positive integer (got "${raw}")`);
  return Number(raw);
}

/** The operator's changes are audited without a key. */
const operator = (store: Store): Actor => ({ storeId: store.id, keyId: null, application: null, requestId: null });

/** Domain errors become operator-readable command errors. */
async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiError)
      throw new CommandError(
        `${err.code}${err.details.length ? `: ${err.details.map((d) => `${d.field} ${d.issue}`).join('; ')}` : ''}`,
      );
    throw err;
  }
}

export async function postCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  if (sub !== 'link-product' && sub !== 'unlink-product')
    throw new UsageError('post commands: link-product, unlink-product');
  const { positionals } = parse(args, {});
  const store = await storeOf(ctx, requirePositional(positionals, 0, 'store handle'));
  const postId = idArg(positionals, 1, 'post_id');
  const productId = requirePositional(positionals, 2, 'product_id');
  const links = new ProductLinks(ctx.db, ctx.clock);
  const productIds = await run(() => links.set(store, postId, productId, sub === 'link-product', operator(store)));
  return { store: store.handle, post_id: postId, product_ids: productIds };
}

export async function categoryCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  switch (sub) {
    case 'rename': {
      const { positionals } = parse(args, {});
      const store = await storeOf(ctx, requirePositional(positionals, 0, 'store handle'));
      return run(() =>
        ctx.categories.update(
          store,
          idArg(positionals, 1, 'category_id'),
          { name: requirePositional(positionals, 2, 'new name') },
          operator(store),
        ),
      );
    }
    case 'move': {
      const { positionals, values } = parse(args, { parent: { type: 'string' } });
      const store = await storeOf(ctx, requirePositional(positionals, 0, 'store handle'));
      const parent = values.parent;
      if (typeof parent !== 'string') throw new UsageError('category move needs --parent <category_id|root>');
      const parentId = parent === 'root' ? null : idArg([parent], 0, '--parent');
      return run(() =>
        ctx.categories.update(store, idArg(positionals, 1, 'category_id'), { parent_id: parentId }, operator(store)),
      );
    }
    case 'delete': {
      const { positionals } = parse(args, {});
      const store = await storeOf(ctx, requirePositional(positionals, 0, 'store handle'));
      const id = idArg(positionals, 1, 'category_id');
      await run(() => ctx.categories.delete(store, id, operator(store)));
      return { store: store.handle, category_id: id, deleted: true };
    }
    default:
      throw new UsageError('category commands: rename, move, delete');
  }
}
