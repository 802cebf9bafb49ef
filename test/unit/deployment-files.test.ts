// The reference deployment (Dockerfile, compose.yaml) and the README's configuration table stay
// consistent with the variables the service reads, as declared in src/config/env-schema.ts;
// compose.yaml is valid (the `docker-compose` Debian package resolves it without a daemon) and
// keeps its operating rules. Container images cannot be run here, so this is what keeps those
// files honest.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { missingTool } from '../helpers/tools.js';
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

/** compose.yaml as Compose resolves it with the example secrets (deploy/compose.env.example). */
function resolvedCompose(): any {
  const run = spawnSync(
    'docker-compose',
    ['-f', 'compose.yaml', '--env-file', 'deploy/compose.env.example', 'config'],
    { encoding: 'utf8' },
  );
  assert.equal(run.error, undefined, 'docker-compose is installed (Debian package docker-compose)');
  assert.equal(run.status, 0, run.stderr);
  return parse(run.stdout);
}

function composeApiEnv(): Record<string, string> {
  const compose = resolvedCompose();
  const env = compose.services.api.environment as Record<string, string>;
  assert.deepEqual(compose.services.cli.environment, env, "the CLI service runs with the replicas' environment");
  const { DATABASE_URL: ownerUrl, ...migrateRest } = compose.services.migrate.environment;
  const { DATABASE_URL: appUrl, ...apiRest } = env;
  assert.deepEqual(migrateRest, apiRest, "migrations run with the replicas' environment but for the database role");
  assert.equal(new URL(ownerUrl).username, 'blog_owner');
  assert.equal(new URL(appUrl).username, 'blog_app');
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

// The compose checks need docker-compose (it resolves the file without a daemon).
const noCompose = missingTool('docker-compose', 'docker-compose');

describe('deployment files and the configuration', () => {
  const known = serviceVariables();

  it('the schema declares the variables this test knows of', () => {
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'MEDIA_STORE',
      'S3_BUCKET',
      'S3_ENDPOINT',
      'MIGRATE_ON_START',
      'SHUTDOWN_GRACE_MS',
      'MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS',
    ]) {
      assert.ok(known.has(name), `${name} is declared`);
    }
  });

  it('loadConfig reads nothing the schema does not declare', () => {
    const asked = new Set<string>();
    const recording = new Proxy(
      { MEDIA_STORE: 's3', S3_BUCKET: 'blog-media', MEDIA_UPLOAD_TIMEOUT_SECONDS: '60' } as Record<string, string>,
      {
        get(target, name) {
          if (typeof name === 'string') asked.add(name);
          return target[name as string];
        },
      },
    );
    loadConfig(recording as NodeJS.ProcessEnv);
    assert.deepEqual(
      [...asked].filter((name) => !known.has(name)),
      [],
    );
  });

  it(
    'compose.yaml sets only variables the service reads, and the service accepts them as they are',
    { skip: noCompose },
    () => {
      const env = composeApiEnv();
      for (const name of Object.keys(env))
        assert.ok(
          known.has(name) || OUTSIDE_THE_SCHEMA.test(name),
          `${name} in compose.yaml is not a variable the service reads`,
        );
      const config = loadConfig(env);
      assert.equal(config.database.engine, 'postgres');
      assert.equal(config.mediaStore.kind, 's3');
      assert.equal(config.redisUrl, env.REDIS_URL);
      assert.equal(config.ops.migrateOnStart, false);
      assert.ok(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY, 'the bucket needs credentials');
    },
  );

  it('compose.yaml is valid, and refuses to start without its secrets', { skip: noCompose }, () => {
    resolvedCompose();
    const bare = spawnSync('docker-compose', ['-f', 'compose.yaml', 'config', '--quiet'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    assert.notEqual(bare.status, 0);
    assert.match(bare.stderr, /set [A-Z_]+_PASSWORD/);
  });

  it(
    'compose.yaml: restart policies, pinned images, log rotation, only the balancer published, a tagged API image',
    { skip: noCompose },
    () => {
      const { services, networks } = resolvedCompose();
      const oneShot = new Set(['minio-setup', 'migrate', 'cli']);
      for (const [name, service] of Object.entries<any>(services)) {
        assert.equal(service.restart, oneShot.has(name) ? 'no' : 'unless-stopped', `${name} restart policy`);
        assert.deepEqual(
          service.logging,
          { driver: 'json-file', options: { 'max-size': '10m', 'max-file': '5' } },
          `${name} log rotation`,
        );
        assert.match(service.image, /^[\w./-]+:(?!latest$)[\w.-]*\d[\w.-]*$/, `${name} image pinned to a release`);
        const ports = (service.ports ?? []).map((p: any) =>
          typeof p === 'string' ? p : `${p.host_ip ?? ''}:${p.published}:${p.target}`,
        );
        if (name === 'lb') assert.ok(ports.length > 0);
        else if (name === 'prometheus')
          for (const port of ports) assert.match(port, /^127\.0\.0\.1:/, 'Prometheus on loopback only');
        else assert.deepEqual(ports, [], `${name} publishes nothing`);
        if (!['lb', 'api'].includes(name))
          assert.deepEqual(Object.keys(service.networks), ['internal'], `${name} on the internal network only`);
      }
      assert.equal(networks.internal.internal, true);
      for (const name of ['api', 'migrate', 'cli'])
        assert.equal(services[name].image, 'store-blog-api:0.1.0', `${name} runs the tagged image`);
      // The service's bucket credentials are not MinIO's root account.
      assert.notEqual(services.api.environment.AWS_ACCESS_KEY_ID, services.minio.environment.MINIO_ROOT_USER);
      assert.notEqual(services.api.environment.AWS_SECRET_ACCESS_KEY, services.minio.environment.MINIO_ROOT_PASSWORD);
      const policy = JSON.parse(readFileSync('deploy/minio-bucket-policy.json', 'utf8'));
      const actions = policy.Statement.flatMap((s: any) => s.Action).sort();
      assert.ok(
        actions.every((a: string) => /^s3:(Get|Put|Delete|List|AbortMultipartUpload)/.test(a)),
        actions.join(),
      );
      assert.deepEqual(
        [...new Set(policy.Statement.flatMap((s: any) => s.Resource))],
        ['arn:aws:s3:::blog-media', 'arn:aws:s3:::blog-media/*'],
      );
    },
  );

  it('compose.yaml gives the API longer to stop than its drain and grace together', { skip: noCompose }, () => {
    const { services } = resolvedCompose();
    const config = loadConfig(composeApiEnv());
    const period = String(services.api.stop_grace_period);
    const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(period);
    assert.ok(match, `stop_grace_period ${period}`);
    const stopMs = (Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0)) * 1000;
    const { shutdownDrainMs, shutdownGraceMs } = config.ops;
    assert.ok(
      stopMs > shutdownDrainMs + shutdownGraceMs,
      `${period} must exceed ${shutdownDrainMs} + ${shutdownGraceMs} ms`,
    );
  });

  it('the Dockerfile sets only variables the service reads, and they are valid', () => {
    const env = dockerfileEnv();
    assert.deepEqual(Object.keys(env).sort(), ['HOST', 'NODE_ENV', 'PORT']);
    for (const name of Object.keys(env))
      assert.ok(known.has(name) || OUTSIDE_THE_SCHEMA.test(name), `${name} in the Dockerfile`);
    const config = loadConfig(env);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.port, 8080);
  });

  it('the Dockerfile: dependencies before sources, no lifecycle scripts in install or prune, no dangling link, no VOLUME; a small context', () => {
    const text = readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ');
    const deps = text.slice(text.indexOf(' AS deps'), text.indexOf('\nFROM ', text.indexOf(' AS deps')));
    assert.deepEqual(
      [...deps.matchAll(/^COPY (.+)$/gm)].map((m) => m[1]),
      ['package.json package-lock.json ./', 'sdk/package.json ./sdk/package.json'],
      'the install layer sees only the manifests',
    );
    assert.match(deps, /^RUN npm ci --ignore-scripts --workspaces=false/m);
    assert.match(text, /npm prune --omit=dev --ignore-scripts --workspaces=false/);
    assert.match(text, /rm -f node_modules\/store-blog-sdk/);
    assert.doesNotMatch(text, /^VOLUME/m);
    const ignored = readFileSync('.dockerignore', 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['test', 'bench', 'docs', '.ci', '.git', 'node_modules', 'dist'])
      assert.ok(ignored.includes(entry), `.dockerignore leaves out ${entry}`);
  });

  it('the README configuration table is the schema: every variable once, in its order, with its default and meaning', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(
      readme.indexOf('## Configuration'),
      readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5),
    );
    const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \| (.*) \| (.*) \|$/gm)].map(
      ([, name, fallback, meaning]) => ({ name, fallback, meaning }),
    );
    const declared = Object.entries(ENV_SCHEMA.properties).map(([name, schema]) => ({
      name,
      fallback: readmeDefault(String(schema.default)),
      meaning: schema.description,
    }));
    assert.deepEqual(rows, declared);
  });

  it('docs/deployment.md names only variables the service reads', () => {
    const doc = readFileSync('docs/deployment.md', 'utf8');
    const named = [...doc.matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]);
    assert.ok(named.length >= 10);
    for (const name of named) assert.ok(known.has(name), `${name} in docs/deployment.md`);
  });
});
