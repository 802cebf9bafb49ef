// Operator CLI: `blog-api <group> <command> …`. Prints one JSON object on stdout (exit 0), or a
// clear error on stderr (exit 1: cannot be done; exit 2: the command line is wrong).
// `<command> --help` prints that command's usage.
import { ConfigError, loadConfig, type DatabaseConfig } from '../config/config.js';
import { createContext, type AppContext } from '../context.js';
import { migrateToLatest, SchemaTooNewError } from '../db/migrate.js';
import { openDatabase } from '../db/database.js';
import { describeConnectionFailure } from '../db/connection-failure.js';
import { CommandError, UsageError } from './cli-support.js';
import { commandGroup, USAGE } from './command-groups.js';
import { isKnownCommand, usageFor } from './usage.js';

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

/** Commands that change nothing: they need no Redis, even where the servers keep cache versions there. */
const READ_ONLY = new Set(['store show', 'key list', 'webhook list']);

export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [group, sub, ...rest] = argv;
  if (!group) return { code: 2, stdout: '', stderr: `${USAGE}\n` };
  // `help [command]`, `--help`, or `<command> --help`: that command's usage, exit 0, before
  // anything else is read (no configuration or database needed).
  if (group === 'help' || isHelp(group)) return { code: 0, stdout: `${usageFor(USAGE, sub, rest[0])}\n`, stderr: '' };
  if (argv.some(isHelp) && isKnownCommand(USAGE, group)) {
    return { code: 0, stdout: `${usageFor(USAGE, group, isHelp(sub) ? undefined : sub)}\n`, stderr: '' };
  }
  let ctx: AppContext | undefined;
  let database: DatabaseConfig | undefined;
  try {
    const config = loadConfig();
    database = config.database;
    if (group === 'migrate') {
      const handle = openDatabase(config.database);
      try {
        const outcome = await migrateToLatest(handle);
        return ok({ migrated: true, applied: outcome.applied });
      } finally {
        await handle.close();
      }
    }
    ctx = await createContext(config, { operator: true, readOnly: READ_ONLY.has(`${group} ${sub}`) });
    const run = commandGroup(group);
    if (!run) throw new UsageError(`unknown command "${group}"`);
    // With the API's cache versions kept in Redis, what the command changes is dropped there
    // before it reports success, so every server sees it on its next request.
    const shared = ctx.sharedVersions;
    const since = shared ? await shared.horizonNow() : null;
    const result = await run(ctx, sub, rest);
    if (shared) {
      try {
        await shared.dropChangedSince(since, 'all');
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new CommandError(
          `the change was made, but the cache versions kept in Redis could not be dropped (${reason}); servers see it within about a second: ${JSON.stringify(result)}`,
        );
      }
    }
    return ok(result);
  } catch (err) {
    // A usage error shows the usage of the command that was meant, not the whole listing.
    if (err instanceof UsageError)
      return { code: 2, stdout: '', stderr: `blog-api: ${err.message}\n${usageFor(USAGE, group, sub)}\n` };
    if (err instanceof CommandError || err instanceof ConfigError || err instanceof SchemaTooNewError)
      return { code: 1, stdout: '', stderr: `blog-api: ${err.message}\n` };
    const unreachable = database && describeConnectionFailure(err, database);
    if (unreachable) return { code: 1, stdout: '', stderr: `blog-api: ${unreachable}\n` };
    return {
      code: 1,
      stdout: '',
      stderr: `blog-api: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`,
    };
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

function ok(result: unknown) {
  return { code: 0, stdout: `${JSON.stringify(result)}\n`, stderr: '' };
}
