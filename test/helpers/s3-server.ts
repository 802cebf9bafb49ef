// A real S3-compatible server (s3rver) on an ephemeral port for a test file, a bucket in it,
// and a client of our own to look at the bucket directly.
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { Store } from '../../src/modules/stores/index.js';
import type { EngineTarget } from './engines.js';
import { secondInstance } from './second-instance.js';
import { startTestApp, type TestApp } from './test-app.js';

// s3rver checks request signatures against these; the service reads them from the environment,
// through the AWS SDK's default credential chain, as it would read real ones.
process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment that points the service at this server and bucket (with a key prefix). */
  env: Record<string, string>;
  prefix: string;
  /** The bytes of an object, or null when there is none. */
  object(key: string): Promise<Buffer | null>;
  /** Writes an object directly, as something other than the service would. */
  putObject(key: string, data: Buffer): Promise<void>;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  /** Empties the bucket. */
  clear(): Promise<void>;
  /** Stops answering (connections are refused) until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Keys per listing page and per DeleteObjects (see keys() and clear()). */
const LIST_PAGE = 500;
const CLEAR_BATCH = LIST_PAGE;

export async function startS3(bucket = 'blog-media'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  let server: S3rver | null = null;
  let port = 0;
  const run = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    const address = (await server.run()) as unknown as { port: number };
    port = address.port;
  };
  await run();
  const endpoint = `http://127.0.0.1:${port}`;
  const prefix = 'media/';
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // Page by page with the first listing API and the last key as the marker: s3rver makes the
  // second API's continuation token with crypto.createCipher, which Node 22 removed, so any
  // listing of more than one page that way answers InternalError.
  const keys = async () => {
    const all: string[] = [];
    for (;;) {
      const listed = await client.send(
        new ListObjectsCommand({ Bucket: bucket, MaxKeys: LIST_PAGE, Marker: all[all.length - 1] }),
      );
      all.push(...(listed.Contents ?? []).map((c) => c.Key!));
      if (!listed.IsTruncated || (listed.Contents ?? []).length === 0) break;
    }
    return all.sort();
  };
  return {
    endpoint,
    bucket,
    prefix,
    env: {
      MEDIA_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: prefix,
    },
    async object(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch {
        return null;
      }
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await got.Body!.transformToByteArray());
    },
    keys,
    async putObject(key, data) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data }));
    },
    async clear() {
      // One DeleteObjects takes at most 1,000 keys (S3's maximum): delete in batches, and list
      // again in case anything was written meanwhile.
      for (let all = await keys(); all.length > 0; all = await keys()) {
        for (let i = 0; i < all.length; i += CLEAR_BATCH) {
          const batch = all.slice(i, i + CLEAR_BATCH).map((Key) => ({ Key }));
          await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch } }));
        }
      }
    },
    async stop() {
      await server?.close();
      server = null;
    },
    async start() {
      if (!server) await run();
    },
    async close() {
      client.destroy();
      await server?.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** What an S3 suite's tests use; set before its first test runs (read it inside hooks and tests only). */
export interface S3Suite {
  t: TestApp;
  /** A second instance over the same database and bucket. */
  other: Awaited<ReturnType<typeof secondInstance>>;
  store: Store;
  key: string;
}

/**
 * Hooks of a suite on `target` whose media go to `s3` under `prefix`: a test app, a second
 * instance beside it, and a tenant, made before the suite's first test and closed after its last.
 */
export function s3Suite(target: EngineTarget, s3: TestS3, prefix: string): S3Suite {
  const suite = {} as S3Suite;
  before(async () => {
    suite.t = await startTestApp(target, { ...s3.env, S3_PREFIX: prefix });
    suite.other = await secondInstance(suite.t);
    const { store, key } = await suite.t.tenant();
    Object.assign(suite, { store, key });
  });
  after(async () => {
    await suite.other?.close();
    await suite.t?.close();
  });
  return suite;
}

/** A server that accepts connections and never answers: a store that hangs. */
export async function startSilentServer(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
