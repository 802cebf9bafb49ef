// Command groups beyond stores and keys.
import type { AppContext } from '../context.js';
import { categoryCommand, postCommand } from './back-office-commands.js';
import { housekeepingCommand, mediaCommand } from './media-commands.js';
import { webhookCommand, webhookUsage } from './webhook-commands.js';

type Group = (ctx: AppContext, sub: string | undefined, args: string[]) => Promise<unknown>;

export const extraCommands: { usage: string; groups: Record<string, Group> } = {
  usage: `  post link-product <handle> <post_id> <product_id>
  post unlink-product <handle> <post_id> <product_id>
  category rename <handle> <category_id> <new name>
  category move <handle> <category_id> --parent <category_id|root>
  category delete <handle> <category_id>            (leaf categories only; posts lose it)
  media sync --from-dir <dir>                       (copy every image's file into the configured store)
  housekeeping                                      (one cleanup pass; prints counts per kind)
${webhookUsage}`,
  groups: { post: postCommand, category: categoryCommand, media: mediaCommand, housekeeping: housekeepingCommand, webhook: webhookCommand },
};
