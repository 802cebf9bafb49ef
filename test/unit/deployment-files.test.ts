// The reference deployment (Dockerfile, compose.yaml) and the README's configuration table stay
// consistent with the variables the service reads, as declared in src/config/env-schema.ts.
// Container images cannot be run here, so this is what keeps those files honest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config.js';
import { ENV_SCHEMA, VARIABLE_NAMES } from '../../src/config/env-schema.js';

/** Every variable the service reads: the schema is the one list (config.ts reads only through it). */
const serviceVariables = (): Set<string> => new Set(VARIABLE_NAMES);

/** Credentials and settings the AWS SDK reads itself (its default chain), and Node's own. */
const OUTSIDE_THE_SCHEMA = /^(AWS_[A-Z_]+|NODE_ENV)$/;

/** A default as the README's table shows it: a plain value in code quotes, a phrase as it is. */
function readmeDefault(fallback: string): string {
  return /^[\w.:/<>@-]+$/.test(fallback) && !/^(unset|empty)$/.test(fallback) ? `\`${fallback}\`` : fallback;
}

function composeApiEnv(): Record<string, string> {
  const compose = parse(readFileSync('compose.yaml', 'utf8'));
  const env = compose.services.api.environment as Record<string, string>;
  assert.deepEqual(compose.services.migrate.environment, env, 'the CLI service runs with the replicas\' environment');
  return env;
}

function dockerfileEnv(): Record<string, string> {
  const text = readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ');
  const env: Record<string, string> = {};
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  for (const line of runtime.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/([A-Z0-9_]+)=(\S+)/g)) env[name] = value;
  }
  return env;
}

describe('deployment files and the configuration', () => {
  const known = serviceVariables();

  it('the schema declares the variables this test knows of', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'MEDIA_STORE', 'S3_BUCKET', 'S3_ENDPOINT', 'MIGRATE_ON_START', 'SHUTDOWN_GRACE_MS', 'MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS']) {
      assert.ok(known.has(name), `${name} is declared`);
    }
  });

  it('loadConfig reads nothing the schema does not declare', () => {
    const asked = new Set<string>();
    const recording = new Proxy({ MEDIA_STORE: 's3', S3_BUCKET: 'blog-media', MEDIA_UPLOAD_TIMEOUT_SECONDS: '60' } as Record<string, string>, {
      get(target, name) {
        if (typeof name === 'string') asked.add(name);
        return target[name as string];
      },
    });
    loadConfig(recording as NodeJS.ProcessEnv);
    assert.deepEqual([...asked].filter((name) => !known.has(name)), []);
  });

  it('compose.yaml sets only variables the service reads, and the service accepts them as they are', () => {
    const env = composeApiEnv();
    for (const name of Object.keys(env)) assert.ok(known.has(name) || OUTSIDE_THE_SCHEMA.test(name), `${name} in compose.yaml is not a variable the service reads`);
    const config = loadConfig(env);
    assert.equal(config.database.engine, 'postgres');
    assert.equal(config.mediaStore.kind, 's3');
    assert.equal(config.redisUrl, env.REDIS_URL);
    assert.equal(config.ops.migrateOnStart, false);
    assert.ok(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY, 'the bucket needs credentials');
  });

  it('the Dockerfile sets only variables the service reads, and they are valid', () => {
    const env = dockerfileEnv();
    assert.deepEqual(Object.keys(env).sort(), ['HOST', 'NODE_ENV', 'PORT']);
    for (const name of Object.keys(env)) assert.ok(known.has(name) || OUTSIDE_THE_SCHEMA.test(name), `${name} in the Dockerfile`);
    const config = loadConfig(env);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8080);
  });

  it('the README configuration table is the schema: every variable once, in its order, with its default and meaning', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
    const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \| (.*) \| (.*) \|$/gm)].map(([, name, fallback, meaning]) => ({ name, fallback, meaning }));
    const declared = Object.entries(ENV_SCHEMA.properties).map(([name, schema]) => ({ name, fallback: readmeDefault(String(schema.default)), meaning: schema.description }));
    assert.deepEqual(rows, declared);
  });

  it('docs/deployment.md names only variables the service reads', () => {
    const doc = readFileSync('docs/deployment.md', 'utf8');
    const named = [...doc.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]);
    assert.ok(named.length >= 10);
    for (const name of named) assert.ok(known.has(name), `${name} in docs/deployment.md`);
  });
});
