// MediaStore on an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, Cloudflare R2):
// `<prefix><store handle>/<basename>`. Credentials come from the AWS SDK's default chain.
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3StoreConfig } from '../../config/config.js';
import { isValidHandle } from './image-refs.js';
import { isStoredFileName, VARIANT_FORMAT_INFO } from './image-variants.js';
import {
  listPosition,
  type MediaStore,
  type StoredFileInfo,
  type StoredObject,
  type StoredObjectPage,
} from './media-store.js';

const CONTENT_TYPES: Record<string, string> = Object.fromEntries(
  Object.values(VARIANT_FORMAT_INFO).map((info) => [info.extension, info.contentType]),
);

/** The SDK's answer for an object or bucket that is not there (HEAD has no error body, so no code). */
function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound')
  );
}

export function createS3Client(config: S3StoreConfig): S3Client {
  const checksums = config.checksums === 'when_supported' ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED';
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint ?? undefined,
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: checksums,
    responseChecksumValidation: checksums,
    // Bounded waits: a store that does not answer fails the request (500, retryable) instead of
    // holding it. requestTimeout runs until the response headers; socketTimeout bounds every
    // silence after that, including while an image streams out.
    requestHandler: {
      connectionTimeout: config.connectTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: config.requestTimeoutMs,
    },
  });
}

export class S3MediaStore implements MediaStore {
  private readonly client: S3Client;

  constructor(
    private readonly config: S3StoreConfig,
    client?: S3Client,
  ) {
    this.client = client ?? createS3Client(config);
  }

  async put(handle: string, basename: string, data: Buffer): Promise<void> {
    // An object appears only once its upload completes; a failed multipart upload is aborted by
    // lib-storage, so nothing partial is ever readable under the key.
    await new Upload({
      client: this.client,
      params: {
        Bucket: this.config.bucket,
        Key: this.keyOf(handle, basename),
        Body: data,
        ContentType: CONTENT_TYPES[basename.slice(basename.lastIndexOf('.') + 1)],
        // A basename never changes content, so any cache in front of the bucket may keep it.
        CacheControl: 'public, max-age=31536000, immutable',
      },
    }).done();
  }

  async remove(handle: string, basename: string): Promise<void> {
    // S3 answers a delete of a missing key with success, which is what the interface asks.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(handle, basename) }));
  }

  async stat(handle: string, basename: string): Promise<StoredFileInfo | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(handle, basename) }),
      );
      return { bytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async open(handle: string, basename: string): Promise<{ info: StoredFileInfo; stream: Readable } | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(handle, basename) }),
      );
      return {
        info: { bytes: object.ContentLength ?? 0, modifiedAt: object.LastModified ?? new Date(0) },
        stream: object.Body as Readable,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async check(): Promise<void> {
    // One round trip that needs the bucket to exist and the credentials to be accepted.
    await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }), {
      abortSignal: AbortSignal.timeout(this.config.connectTimeoutMs + this.config.requestTimeoutMs),
    });
  }

  async list(after: string | null, limit: number): Promise<StoredObjectPage> {
    const page = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.config.bucket,
        Prefix: this.config.prefix || undefined,
        StartAfter: after === null ? undefined : this.config.prefix + after,
        MaxKeys: limit,
      }),
    );
    const objects: StoredObject[] = [];
    let last: string | null = null;
    for (const entry of page.Contents ?? []) {
      if (!entry.Key) continue;
      last = entry.Key.slice(this.config.prefix.length);
      const [handle, basename, ...rest] = last.split('/');
      // Keys this service did not write (other prefixes, other files) are never touched.
      if (rest.length > 0 || !isValidHandle(handle) || !isStoredFileName(basename ?? '')) continue;
      objects.push({ handle, basename, modifiedAt: entry.LastModified ?? new Date() });
    }
    return { objects, next: page.IsTruncated && last !== null ? last : null };
  }

  async removeLeftovers(): Promise<number> {
    // Objects appear whole or not at all; parts of an interrupted multipart upload are not
    // objects and are left to the bucket's AbortIncompleteMultipartUpload lifecycle rule.
    return 0;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private keyOf(handle: string, basename: string): string {
    if (!isValidHandle(handle) || !isStoredFileName(basename))
      throw new Error(`Invalid media path ${handle}/${basename}`);
    return this.config.prefix + listPosition(handle, basename);
  }
}
