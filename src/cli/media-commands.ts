// `blog-api media sync --from-dir <dir>` and `blog-api housekeeping`.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppContext } from '../context.js';
import { LocalMediaStore, syncMediaFiles } from '../modules/media/index.js';
import { CommandError, parse, requireString, UsageError } from './cli-support.js';

/** Problems listed in the output at most; the counts cover all of them. */
const PROBLEMS_SHOWN = 20;

export async function mediaCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  if (sub !== 'sync') throw new UsageError(sub ? `unknown media command "${sub}"` : 'missing media command');
  const { values, positionals } = parse(args, { 'from-dir': { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const dir = resolve(requireString('from-dir', values['from-dir']));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CommandError(`--from-dir ${dir} is not a folder`);
  const problems: Array<{ image_id: string; path: string; issue: string }> = [];
  const counts = await syncMediaFiles(ctx.db, new LocalMediaStore(dir), ctx.media.files, (p) => {
    if (problems.length < PROBLEMS_SHOWN) problems.push(p);
  });
  return { ...counts, problems };
}

export async function housekeepingCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  if (sub !== undefined || args.length > 0) throw new UsageError('housekeeping takes no arguments');
  const result = await ctx.housekeeping.runPass();
  if (!result.ran) throw new CommandError(`${result.reason}; try again later`);
  const { ran: _ran, ...counts } = result;
  return counts;
}
