#!/usr/bin/env node
/// <reference types="node" />
// `npx store-blog listen --forward-to http://localhost:3000/hooks [--types post.*,category.deleted]`
// (src/listen.ts). The API key comes from BLOG_API_KEY, the service's address from BLOG_API_URL
// (or --api-url), so neither lands in the shell history.
import { parseArgs } from 'node:util';
import { listen } from './listen.js';
import { isEventTypeFilter } from './vocabulary.js';

const USAGE = `Usage: store-blog listen --forward-to <url> [options]

Follows the store's events feed and forwards each event to <url>, signed per Standard Webhooks
with the secret printed at start (kept in the state file, so it stays the same between runs).
A restart (after Ctrl-C or a crash) resumes after the last event the receiver accepted with a
2xx. While the API cannot be reached it keeps trying, waiting up to 30 s between tries; it stops
on Ctrl-C, or when the API refuses the key (401, 403) or the saved cursor (410).

Environment: BLOG_API_KEY (required), BLOG_API_URL (the service's address)

Options:
  --forward-to <url>        where to POST each event (required)
  --types <list>            comma-separated types or prefixes, e.g. post.*,category.deleted
  --api-url <url>           the service's address (default: BLOG_API_URL)
  --state <file>            where the secret and cursor are kept (default: .store-blog-listen.json)
  --secret <whsec_...>      sign with this secret instead
  --from-start              on a first run, forward every event still kept, not only new ones
  --poll-interval-ms <n>    wait between polls once caught up (default 2000)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'listen') {
    console.error(USAGE);
    return command === undefined || command === '--help' ? 0 : 2;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        'forward-to': { type: 'string' },
        types: { type: 'string' },
        'api-url': { type: 'string' },
        state: { type: 'string' },
        secret: { type: 'string' },
        'from-start': { type: 'boolean' },
        'poll-interval-ms': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const apiKey = process.env.BLOG_API_KEY;
  const baseUrl = values['api-url'] ?? process.env.BLOG_API_URL;
  const forwardTo = values['forward-to'];
  const problems = [
    ...(apiKey ? [] : ['BLOG_API_KEY is not set']),
    ...(baseUrl ? [] : ['the service address is missing: set BLOG_API_URL or pass --api-url']),
    ...(forwardTo && /^https?:\/\//.test(forwardTo) ? [] : ['--forward-to needs an http(s) URL']),
    ...(values.secret === undefined || /^whsec_[A-Za-z0-9+/=]{16,}$/.test(values.secret)
      ? []
      : ['--secret must look like whsec_<base64>']),
  ];
  const types = values.types
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknownTypes = types?.filter((type) => !isEventTypeFilter(type)) ?? [];
  if (unknownTypes.length > 0)
    problems.push(`--types: not an event type or <resource>.* prefix: ${unknownTypes.join(', ')}`);
  const pollIntervalMs = values['poll-interval-ms'] === undefined ? undefined : Number(values['poll-interval-ms']);
  if (pollIntervalMs !== undefined && !(Number.isInteger(pollIntervalMs) && pollIntervalMs >= 50))
    problems.push('--poll-interval-ms must be a whole number ≥ 50');
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n\n${USAGE}`);
    return 2;
  }
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  process.once('SIGTERM', () => stop.abort());
  await listen({
    baseUrl: baseUrl!,
    apiKey: apiKey!,
    forwardTo: forwardTo!,
    stateFile: values.state ?? '.store-blog-listen.json',
    signal: stop.signal,
    ...(types === undefined ? {} : { types: types.filter(isEventTypeFilter) }),
    ...(values.secret === undefined ? {} : { secret: values.secret }),
    ...(values['from-start'] === undefined ? {} : { fromStart: values['from-start'] }),
    ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }),
  });
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`store-blog: ${(err as Error).message}`);
    process.exit(1);
  },
);
