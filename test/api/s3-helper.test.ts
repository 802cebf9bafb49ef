// The test S3 server's helper (test/helpers/s3-server.ts) lists and empties a bucket of more than
// one page: the rolling-restart test empties its bucket of over a thousand uploads after each case.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { startS3 } from '../helpers/s3-server.js';

it('lists and empties a bucket of more than a thousand objects', async () => {
  const s3 = await startS3();
  try {
    const count = 1_001;
    for (let i = 0; i < count; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, (_, j) => s3.putObject(`media/k${i + j}`, Buffer.from('x'))),
      );
    const keys = await s3.keys();
    assert.equal(keys.length, count);
    assert.equal(new Set(keys).size, count);
    await s3.clear();
    assert.deepEqual(await s3.keys(), []);
  } finally {
    await s3.close();
  }
});
