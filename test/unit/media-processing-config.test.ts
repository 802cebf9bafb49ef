// MEDIA_PROCESSING_CONCURRENCY, MEDIA_PROCESSING_WAIT_SECONDS and UV_THREADPOOL_SIZE: the cap on
// images processed at once stays below the thread pool, whatever is set.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../src/config/config.js';
import { configProblems as problems } from '../helpers/config-problems.js';

describe('image processing configuration', () => {
  it('defaults to half the cores (at least one, below the pool of 4) and a 10 s wait', () => {
    const { media } = loadConfig({});
    assert.equal(media.processingConcurrency, Math.max(1, Math.min(Math.floor(availableParallelism() / 2), 3)));
    assert.equal(media.processingWaitMs, 10_000);
    assert.equal(loadConfig({ UV_THREADPOOL_SIZE: '2' }).media.processingConcurrency, 1);
  });

  it('takes a cap below UV_THREADPOOL_SIZE and a wait in seconds', () => {
    const { media } = loadConfig({
      MEDIA_PROCESSING_CONCURRENCY: '7',
      UV_THREADPOOL_SIZE: '8',
      MEDIA_PROCESSING_WAIT_SECONDS: '30',
    });
    assert.equal(media.processingConcurrency, 7);
    assert.equal(media.processingWaitMs, 30_000);
  });

  it('refuses a cap that would take every thread of the pool, a pool of one thread, and a bad wait', () => {
    assert.deepEqual(problems({ MEDIA_PROCESSING_CONCURRENCY: '4' }), [
      'MEDIA_PROCESSING_CONCURRENCY must be an integer from 1 to 3 (UV_THREADPOOL_SIZE − 1) (got "4")',
    ]);
    assert.deepEqual(problems({ MEDIA_PROCESSING_CONCURRENCY: '0' }), [
      'MEDIA_PROCESSING_CONCURRENCY must be an integer from 1 to 3 (UV_THREADPOOL_SIZE − 1) (got "0")',
    ]);
    assert.deepEqual(problems({ UV_THREADPOOL_SIZE: '1' }), [
      'UV_THREADPOOL_SIZE must be an integer from 2 to 1024 (got "1")',
    ]);
    assert.deepEqual(problems({ MEDIA_PROCESSING_WAIT_SECONDS: '0' }), [
      'MEDIA_PROCESSING_WAIT_SECONDS must be an integer from 1 to 3600 (got "0")',
    ]);
  });
});
