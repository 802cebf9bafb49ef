// The problems loadConfig reports for an environment (all at once, as the server prints them at start).
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config/config.js';

/** Each problem with `env`; none when it is valid. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.problems;
  }
  return [];
}
