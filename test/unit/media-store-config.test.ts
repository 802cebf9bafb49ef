// MEDIA_STORE and the S3_* variables: defaults, and every problem listed together at start.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/config.js';
import { configProblems as problems } from '../helpers/config-problems.js';

describe('media store configuration', () => {
  it('defaults to the local folder and a five-minute housekeeping interval', () => {
    const config = loadConfig({});
    assert.deepEqual(config.mediaStore, { kind: 'local' });
    assert.equal(config.housekeepingIntervalS, 300);
    assert.equal(loadConfig({ HOUSEKEEPING_INTERVAL_S: '60' }).housekeepingIntervalS, 60);
  });

  it('reads the S3 settings, with checksums only where required for a custom endpoint', () => {
    const config = loadConfig({
      MEDIA_STORE: 's3',
      S3_BUCKET: 'blog-media',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '/prod/media',
    });
    assert.deepEqual(config.mediaStore, {
      kind: 's3',
      bucket: 'blog-media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      prefix: 'prod/media/',
      checksums: 'when_required',
      connectTimeoutMs: 3000,
      requestTimeoutMs: 15000,
    });
    const aws = loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'blog-media', S3_REGION: 'ap-northeast-1' }).mediaStore;
    assert.equal(
      aws.kind === 's3' && aws.checksums,
      'when_supported',
      'AWS itself stores checksummed uploads correctly',
    );
    assert.equal(aws.kind === 's3' && aws.prefix, '');
    const chosen = loadConfig({
      MEDIA_STORE: 's3',
      S3_BUCKET: 'blog-media',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_CHECKSUMS: 'when_supported',
      S3_REQUEST_TIMEOUT_MS: '2000',
    }).mediaStore;
    assert.equal(chosen.kind === 's3' && chosen.checksums, 'when_supported');
    assert.equal(chosen.kind === 's3' && chosen.requestTimeoutMs, 2000);
  });

  it('lists every media problem together with the others', () => {
    assert.deepEqual(problems({ MEDIA_STORE: 's3', S3_ENDPOINT: 'not a url', LOG_LEVEL: 'loud' }), [
      'S3_BUCKET is required when MEDIA_STORE=s3',
      'S3_ENDPOINT is not a valid URL (got "not a url")',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
    assert.deepEqual(
      problems({
        MEDIA_STORE: 's3',
        S3_BUCKET: 'Bad_Bucket',
        S3_ENDPOINT: 'ftp://user:pw@host',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_PREFIX: 'a/../b',
        S3_CHECKSUMS: 'always',
        S3_CONNECT_TIMEOUT_MS: '0',
        HOUSEKEEPING_INTERVAL_S: '-5',
      }),
      [
        'S3_BUCKET is not a valid bucket name (got "Bad_Bucket")',
        'S3_ENDPOINT must be http:// or https://',
        'S3_ENDPOINT must not carry credentials: use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
        'S3_FORCE_PATH_STYLE must be true or false (got "yes")',
        `S3_PREFIX may hold letters, digits and !_.*'()- in /-separated parts, without empty, . or .. parts (got "a/../b")`,
        'S3_CHECKSUMS must be when_required or when_supported (got "always")',
        'S3_CONNECT_TIMEOUT_MS must be an integer number of milliseconds from 1 to 600000 (got "0")',
        'HOUSEKEEPING_INTERVAL_S must be an integer number of seconds from 1 to 86400 (got "-5")',
      ],
    );
    assert.deepEqual(problems({ MEDIA_STORE: 'disk' }), ['MEDIA_STORE must be local or s3 (got "disk")']);
  });
});
