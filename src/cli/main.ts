// Operator CLI: `blog-api <group> <command> …`. Prints one JSON object on stdout (exit 0), or a
// clear error on stderr (exit 1: cannot be done; exit 2: the command line is wrong).
// `<command> --help` prints that command's usage.
import { ConfigError, loadConfig, type DatabaseConfig } from '../config/config.js';
import { createContext, type AppContext } from '../context.js';
import { migrateToLatest } from '../db/migrate.js';
import { openDatabase } from '../db/database.js';
import { describeConnectionFailure } from '../db/connection-failure.js';
import { CommandError, UsageError } from './cli-support.js';
import { keyCommand } from './key-commands.js';
import { storeCommand } from './store-commands.js';
import { extraCommands } from './extra-commands.js';
import { isKnownCommand, usageFor } from './usage.js';

const USAGE = `usage: blog-api <command>
  migrate
  store create --handle <h> --name <n> [--no-categories] [--no-media] [--uncertified] [--no-emoji]
  store update <handle> [--categories on|off] [--media on|off] [--certified on|off] [--writes-paused on|off]
                        [--emoji on|off] [--webhooks on|off] [--posts-per-day N] [--images-per-day N] [--body-max-bytes N]
                        [--title-max-length N] [--image-max-bytes N] [--image-max-pixels N] [--image-max-width N]
                        [--image-max-gif-frames N] [--image-max-total-pixels N] [--category-max-depth N]
                        [--storefront-base-url URL|default] [--utc-offset ±hh:mm] [--name N]
  store show <handle>
  key issue --store <h> --app <name> --scopes a,b,c [--expires-in-days N | --no-expiry]
            [--read-per-minute N] [--write-per-minute N] [--concurrency N]
  key revoke <key_id>
  key update <key_id> [--expires-at <ISO 8601 with offset | never>] [--read-per-minute N] [--write-per-minute N] [--concurrency N]
  key list --store <h>
${extraCommands.usage}`;

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

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
    ctx = await createContext(config, { operator: true });
    // With the API's cache versions kept in Redis, what the command changes is dropped there
    // before it reports success, so every server sees it on its next request.
    const shared = ctx.sharedVersions;
    const since = shared ? await shared.horizonNow() : null;
    let result: unknown;
    if (group === 'store') result = await storeCommand(ctx, sub, rest);
    else if (group === 'key') result = await keyCommand(ctx, sub, rest);
    else if (extraCommands.groups[group]) result = await extraCommands.groups[group](ctx, sub, rest);
    else throw new UsageError(`unknown command "${group}"`);
    if (shared) {
      try {
        await shared.dropChangedSince(since, false);
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new CommandError(`the change was made, but the cache versions kept in Redis could not be dropped (${reason}); servers see it within about a second: ${JSON.stringify(result)}`);
      }
    }
    return ok(result);
  } catch (err) {
    // A usage error shows the usage of the command that was meant, not the whole listing.
    if (err instanceof UsageError) return { code: 2, stdout: '', stderr: `blog-api: ${err.message}\n${usageFor(USAGE, group, sub)}\n` };
    if (err instanceof CommandError || err instanceof ConfigError) return { code: 1, stdout: '', stderr: `blog-api: ${err.message}\n` };
    const unreachable = database && describeConnectionFailure(err, database);
    if (unreachable) return { code: 1, stdout: '', stderr: `blog-api: ${unreachable}\n` };
    return { code: 1, stdout: '', stderr: `blog-api: unexpected error: ${err instanceof Error ? err.message : String(err)}\n` };
  } finally {
    await ctx?.close().catch(() => undefined);
  }
}

function ok(result: unknown) {
  return { code: 0, stdout: `${JSON.stringify(result)}\n`, stderr: '' };
}
