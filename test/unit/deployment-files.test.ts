// The reference deployment (Dockerfile, compose.yaml) and the README's configuration table stay
// consistent with the variables the service actually reads. Container images cannot be run
// here, so this is what keeps those files honest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config.js';
import { mediaSettingsFromEnv } from '../../src/modules/media/media-settings.js';

/** Runs `read` over an environment that records every name asked for. */
function namesRead(read: (env: NodeJS.ProcessEnv) => unknown, base: Record<string, string>): Set<string> {
  const names = new Set<string>();
  const env = new Proxy(base, {
    get(target, name) {
      if (typeof name === 'string') names.add(name);
      return target[name as string];
    },
  });
  read(env as NodeJS.ProcessEnv);
  return names;
}

/** Every variable the service reads: the configuration's and the upload timers'. */
function serviceVariables(): Set<string> {
  const all = new Set<string>();
  // S3 settings are only read when the store is s3, so both branches are walked.
  const walks: Array<Record<string, string>> = [{}, { MEDIA_STORE: 's3', S3_BUCKET: 'blog-media' }, { MEDIA_UPLOAD_TIMEOUT_SECONDS: '60' }];
  for (const base of walks) {
    for (const name of namesRead(loadConfig, base)) all.add(name);
    for (const name of namesRead(mediaSettingsFromEnv, base)) all.add(name);
  }
  return all;
}

/** Credentials and settings the AWS SDK reads itself (its default chain), and Node's own. */
const OUTSIDE_THE_SCHEMA = /^(AWS_[A-Z_]+|NODE_ENV)$/;

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

  it('reads the variables this test knows of (the recording works)', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'MEDIA_STORE', 'S3_BUCKET', 'S3_ENDPOINT', 'MIGRATE_ON_START', 'SHUTDOWN_GRACE_MS', 'MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS']) {
      assert.ok(known.has(name), `${name} is read`);
    }
  });

  it('compose.yaml sets only variables the service reads, and the service accepts them as they are', () => {
    const env = composeApiEnv();
    for (const name of Object.keys(env)) assert.ok(known.has(name) || OUTSIDE_THE_SCHEMA.test(name), `${name} in compose.yaml is not a variable the service reads`);
    const config = loadConfig(env);
    assert.equal(config.database.engine, 'postgres');
    assert.equal(config.mediaStore.kind, 's3');
    assert.equal(config.redisUrl, env.REDIS_URL);
    assert.equal(config.ops.migrateOnStart, false);
    mediaSettingsFromEnv(env);
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

  it('the README configuration table lists exactly the variables the service reads', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
    const listed = [...section.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    assert.equal(new Set(listed).size, listed.length, 'each variable once');
    assert.deepEqual([...listed].sort(), [...known].sort());
  });

  it('docs/deployment.md names only variables the service reads', () => {
    const doc = readFileSync('docs/deployment.md', 'utf8');
    const named = [...doc.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]);
    assert.ok(named.length >= 10);
    for (const name of named) assert.ok(known.has(name), `${name} in docs/deployment.md`);
  });
});
