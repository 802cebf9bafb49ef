// `blog-api media sync --from-dir <dir>`, `blog-api media export --to-dir <dir>` and
// `blog-api housekeeping`.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppContext } from '../context.js';
import { LocalMediaStore, syncMediaFiles } from '../modules/media/index.js';
import { CommandError, parse, requireString, UsageError } from './cli-support.js';

/** How syncMediaFiles names an image whose file is nowhere (worded for `sync`). */
const MISSING_IN_SYNC = 'not in the source folder nor in the store';

/** Problems listed in the output at most; the counts cover all of them. */
const PROBLEMS_SHOWN = 20;

export async function mediaCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  if (sub !== 'sync' && sub !== 'export')
    throw new UsageError(sub ? `unknown media command "${sub}"` : 'missing media command');
  const option = sub === 'sync' ? 'from-dir' : 'to-dir';
  const { values, positionals } = parse(args, { [option]: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const dir = resolve(requireString(option, values[option] as string | undefined));
  // The export makes its folder (a backup's); the sync reads one that must exist.
  if (sub === 'export') mkdirSync(dir, { recursive: true });
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CommandError(`--${option} ${dir} is not a folder`);
  const problems: Array<{ image_id: string; path: string; issue: string }> = [];
  const folder = new LocalMediaStore(dir);
  // The same copy both ways: every live image the database knows, skipped when already whole.
  const [source, target] = sub === 'sync' ? [folder, ctx.media.files] : [ctx.media.files, folder];
  const counts = await syncMediaFiles(ctx.db, source, target, (p) => {
    const problem =
      sub === 'export' && p.issue === MISSING_IN_SYNC ? { ...p, issue: 'not in the store nor in the folder' } : p;
    if (problems.length < PROBLEMS_SHOWN) problems.push(problem);
  });
  // A backup that silently lacks files is worse than none: the export fails loudly (exit 1).
  if (sub === 'export' && (counts.failed > 0 || counts.missing > 0)) {
    throw new CommandError(
      `the export is incomplete (run it again; missing files are lost from the store): ${JSON.stringify({ ...counts, problems })}`,
    );
  }
  return { ...counts, problems };
}

export async function housekeepingCommand(ctx: AppContext, sub: string | undefined, args: string[]): Promise<unknown> {
  if (sub !== undefined || args.length > 0) throw new UsageError('housekeeping takes no arguments');
  const result = await ctx.housekeeping.runPass();
  if (!result.ran) throw new CommandError(`${result.reason}; try again later`);
  const { ran: _ran, ...counts } = result;
  return counts;
}
