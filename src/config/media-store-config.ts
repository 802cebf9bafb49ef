// Where images are stored (MEDIA_STORE and the S3_* variables), parsed beside the rest of the
// configuration so that every problem is listed together at start.
import { S3_DEFAULT_CONNECT_TIMEOUT_MS, S3_DEFAULT_REQUEST_TIMEOUT_MS, type Environment } from './env-schema.js';

export type ChecksumMode = 'when_required' | 'when_supported';

export interface S3StoreConfig {
  kind: 's3';
  bucket: string;
  /** Unset: the AWS endpoint for the region. */
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  /** Key prefix, empty or ending in `/`. */
  prefix: string;
  checksums: ChecksumMode;
  /** Time allowed to open a connection to the store. */
  connectTimeoutMs: number;
  /** Time allowed for one request, from sending it to the response headers (and between bytes). */
  requestTimeoutMs: number;
}

export type MediaStoreConfig = { kind: 'local' } | S3StoreConfig;

// Bucket names as AWS defines them (3–63 lowercase letters, digits, dots and hyphens); the
// S3-compatible servers accept the same.
const BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function flag(env: Environment, name: 'S3_FORCE_PATH_STYLE', problems: string[]): boolean | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  problems.push(`${name} must be true or false (got "${raw}")`);
  return undefined;
}

function milliseconds(
  env: Environment,
  name: 'S3_CONNECT_TIMEOUT_MS' | 'S3_REQUEST_TIMEOUT_MS',
  fallback: number,
  problems: string[],
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 600_000) {
    problems.push(`${name} must be an integer number of milliseconds from 1 to 600000 (got "${raw}")`);
    return fallback;
  }
  return value;
}

/** Parses MEDIA_STORE and, for `s3`, its settings; problems are appended to `problems`. */
export function parseMediaStoreConfig(env: Environment, problems: string[]): MediaStoreConfig {
  const kind = env.MEDIA_STORE?.trim() || 'local';
  if (kind !== 'local' && kind !== 's3') {
    problems.push(`MEDIA_STORE must be local or s3 (got "${kind}")`);
    return { kind: 'local' };
  }
  if (kind === 'local') return { kind: 'local' };

  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (!bucket) problems.push('S3_BUCKET is required when MEDIA_STORE=s3');
  else if (!BUCKET_PATTERN.test(bucket)) problems.push(`S3_BUCKET is not a valid bucket name (got "${bucket}")`);

  const endpoint = env.S3_ENDPOINT?.trim() || null;
  if (endpoint) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      problems.push(`S3_ENDPOINT is not a valid URL (got "${endpoint}")`);
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
      problems.push('S3_ENDPOINT must be http:// or https://');
    if (url && (url.username || url.password))
      problems.push('S3_ENDPOINT must not carry credentials: use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  }

  const region = env.S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]+$/.test(region))
    problems.push(`S3_REGION must be a region name such as us-east-1 (got "${region}")`);

  const forcePathStyle = flag(env, 'S3_FORCE_PATH_STYLE', problems) ?? false;

  // A prefix is a folder in the bucket: "media" and "/media/" both mean keys under "media/".
  const rawPrefix = env.S3_PREFIX?.trim() ?? '';
  const trimmed = rawPrefix.replace(/^\/+|\/+$/g, '');
  if (
    trimmed &&
    (!/^[A-Za-z0-9!_.*'()/-]+$/.test(trimmed) ||
      trimmed.split('/').some((part) => part === '' || part === '.' || part === '..'))
  ) {
    problems.push(
      `S3_PREFIX may hold letters, digits and !_.*'()- in /-separated parts, without empty, . or .. parts (got "${rawPrefix}")`,
    );
  }
  const prefix = trimmed ? `${trimmed}/` : '';

  // Servers other than AWS often keep the aws-chunked framing of checksummed streaming uploads
  // as part of the object, so a custom endpoint defaults to checksums only where required.
  const rawChecksums = env.S3_CHECKSUMS?.trim() || (endpoint ? 'when_required' : 'when_supported');
  if (rawChecksums !== 'when_required' && rawChecksums !== 'when_supported') {
    problems.push(`S3_CHECKSUMS must be when_required or when_supported (got "${rawChecksums}")`);
  }

  return {
    kind: 's3',
    bucket,
    endpoint,
    region,
    forcePathStyle,
    prefix,
    checksums: rawChecksums === 'when_supported' ? 'when_supported' : 'when_required',
    connectTimeoutMs: milliseconds(env, 'S3_CONNECT_TIMEOUT_MS', S3_DEFAULT_CONNECT_TIMEOUT_MS, problems),
    requestTimeoutMs: milliseconds(env, 'S3_REQUEST_TIMEOUT_MS', S3_DEFAULT_REQUEST_TIMEOUT_MS, problems),
  };
}
