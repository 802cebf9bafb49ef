import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A problem with the operator's command line: printed on stderr, exit code 2. */
export class UsageError extends Error {}
/** The command was understood but cannot be done (unknown store, …): exit code 1. */
export class CommandError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;
/** One option's value as parseArgs returns it. */
export type OptionValue = string | boolean | Array<string | boolean> | undefined;

export function parse(args: string[], options: Options) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function onOff(name: string, value: OptionValue): number | undefined {
  if (value === undefined) return undefined;
  if (value === 'on') return 1;
  if (value === 'off') return 0;
  throw new UsageError(`--${name} takes on or off (got "${String(value)}")`);
}

export function positiveInt(name: string, value: OptionValue, { allowZero = false } = {}): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || !Number.isSafeInteger(n) || (!allowZero && n === 0)) {
    throw new UsageError(`--${name} takes a whole number${allowZero ? '' : ' above 0'} (got "${String(value)}")`);
  }
  return n;
}

export function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

export function requirePositional(positionals: string[], index: number, what: string): string {
  const value = positionals[index];
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}
