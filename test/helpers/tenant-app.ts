// The set-up most API suites share: on each engine, a test app and one tenant (a store and a
// key), made before the suite's first test and closed after its last.
import { after, before } from 'node:test';
import type { Scope } from '../../src/modules/keys/index.js';
import type { Store } from '../../src/modules/stores/index.js';
import { describeEachEngine, type EachEngineOptions, type EngineTarget } from './engines.js';
import { startTestApp, type TestApp } from './test-app.js';

/** What a suite's tests use; set before its first test runs (read it inside hooks and tests only). */
export interface TenantSuite {
  t: TestApp;
  /** The suite's store (with categories and media unless the options say otherwise). */
  store: Store;
  /** A key of `store` with the suite's scopes. */
  key: string;
  target: EngineTarget;
}

export interface TenantAppOptions extends EachEngineOptions {
  /** Environment of the test app (startTestApp's `env`). */
  env?: Record<string, string>;
  /** Scopes of the suite's key (default: those of t.tenant()). */
  scopes?: Scope[];
  /**
   * false: no tenant is made (suite.store and suite.key are not set); each test makes its own.
   * Otherwise t.tenant()'s options for the suite's store.
   */
  tenant?: false | { categories?: boolean; media?: boolean };
}

/**
 * describeEachEngine with the usual set-up: `suite.t` is a test app on the engine, and, unless
 * `tenant: false`, `suite.store` and `suite.key` are a tenant of it. A `before` of the suite's
 * own runs after this set-up.
 */
export function describeTenantApp(name: string, body: (suite: TenantSuite) => void): void;
export function describeTenantApp(name: string, options: TenantAppOptions, body: (suite: TenantSuite) => void): void;
export function describeTenantApp(
  name: string,
  ...args: [(suite: TenantSuite) => void] | [TenantAppOptions, (suite: TenantSuite) => void]
): void {
  const [options, body] = args.length === 1 ? [{} as TenantAppOptions, args[0]] : args;
  describeEachEngine(
    name,
    (target) => {
      const suite = { target } as TenantSuite;
      before(async () => {
        suite.t = await startTestApp(target, options.env);
        if (options.tenant !== false)
          Object.assign(
            suite,
            await suite.t.tenant({ ...options.tenant, ...(options.scopes ? { scopes: options.scopes } : {}) }),
          );
      });
      after(() => suite.t?.close());
      body(suite);
    },
    { skip: options.skip },
  );
}
