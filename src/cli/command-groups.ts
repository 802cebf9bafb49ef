// Every command group of the operator CLI and the usage text that lists them (`migrate`, which
// runs before the services exist, is handled by main.ts itself).
import type { AppContext } from '../context.js';
import { categoryCommand, postCommand } from './back-office-commands.js';
import { keyCommand } from './key-commands.js';
import { housekeepingCommand, mediaCommand } from './media-commands.js';
import { storeCommand } from './store-commands.js';
import { webhookCommand, webhookUsage } from './webhook-commands.js';

type Group = (ctx: AppContext, sub: string | undefined, args: string[]) => Promise<unknown>;

export const USAGE = `usage: blog-api <command>
  migrate
  store create --handle <h> --name <n> [--no-categories] [--no-media] [--uncertified] [--no-emoji]
  store update <handle> [--categories on|off] [--media on|off] [--certified on|off] [--writes-paused on|off]
                        [--emoji on|off] [--webhooks on|off] [--posts-per-day N] [--images-per-day N] [--body-max-bytes N]
                        [--title-max-length N] [--image-max-bytes N] [--image-max-pixels N] [--image-max-width N]
                        [--image-max-gif-frames N] [--image-max-total-pixels N] [--category-max-depth N]
                        [--storefront-base-url URL|default] [--utc-offset ±hh:mm] [--name N]
                        [--allowed-origins https://a.example,https://b.example|none]   (CORS of the Content API)
  store show <handle>
  key issue --store <h> --app <name> --scopes a,b,c [--expires-in-days N | --no-expiry]
            [--read-per-minute N] [--write-per-minute N] [--concurrency N]
  key revoke <key_id>
  key update <key_id> [--expires-at <ISO 8601 with offset | never>] [--read-per-minute N] [--write-per-minute N] [--concurrency N]
  key list --store <h> | --expiring [--store <h>]    (--expiring: active keys expiring within 30 days, by store)
  post link-product <handle> <post_id> <product_id>
  post unlink-product <handle> <post_id> <product_id>
  category rename <handle> <category_id> <new name>
  category move <handle> <category_id> --parent <category_id|root>
  category delete <handle> <category_id>            (leaf categories only; posts lose it)
  media sync --from-dir <dir>                       (copy every image's file into the configured store)
  media export --to-dir <dir>                       (copy every image's file from the configured store into a folder)
  housekeeping                                      (one cleanup pass; prints counts per kind)
${webhookUsage}`;

const GROUPS: Record<string, Group> = {
  store: storeCommand,
  key: keyCommand,
  post: postCommand,
  category: categoryCommand,
  media: mediaCommand,
  housekeeping: housekeepingCommand,
  webhook: webhookCommand,
};

/** The group's command runner, or undefined for a name that is not a group. */
export function commandGroup(name: string): Group | undefined {
  return Object.hasOwn(GROUPS, name) ? GROUPS[name] : undefined;
}
