// Operator commands for webhook endpoints: list a store's, disable one (e.g. a receiver that
// misbehaves). Secrets are never printed.
import type { AppContext } from '../context.js';
import { CommandError, parse, requirePositional, requireString, UsageError } from './cli-support.js';

export const webhookUsage = `  webhook list --store <h>
  webhook disable <webhook_id>`;

export async function webhookCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  switch (sub) {
    case 'list': {
      const { values } = parse(args, { store: { type: 'string' } });
      const handle = requireString('store', values.store);
      const store = await ctx.stores.findByHandle(handle);
      if (!store) throw new CommandError(`no store with handle "${handle}"`);
      return ctx.webhooks.list(store);
    }
    case 'disable': {
      const { positionals } = parse(args, {});
      const id = requirePositional(positionals, 0, 'webhook id');
      const endpoint = await ctx.webhooks.disableByOperator(id);
      if (!endpoint) throw new CommandError(`no webhook endpoint with id "${id}"`);
      return endpoint;
    }
    default:
      throw new UsageError('webhook commands: list, disable');
  }
}
