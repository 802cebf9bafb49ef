import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openRedisConnection } from '../../src/traffic/redis-connection.js';
import { redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';

const skip = await redisSkipReason();

interface Socket {
  writableCorked: number;
  writableLength: number;
}

describe('the Redis connection', { skip }, () => {
  it("writes one turn's commands in one write, in the order they were sent", async (t) => {
    const connection = openRedisConnection(TEST_REDIS_URL, () => undefined);
    const { client } = connection;
    const key = `test:${process.pid}:${Date.now()}:order`;
    t.after(async () => {
      await client.del(key);
      await connection.close();
    });
    await connection.whenSettled();

    const before = connection.commandCount();
    const replies = [client.rpush(key, 'a'), client.rpush(key, 'b'), client.lrange(key, 0, -1)];
    const socket = (client as unknown as { stream: Socket }).stream;
    // Held for the turn's end: the three commands wait in the socket's buffer, not in three writes.
    assert.equal(socket.writableCorked, 1);
    assert.ok(socket.writableLength > 0, 'the commands are buffered');
    assert.deepEqual(await Promise.all(replies), [1, 2, ['a', 'b']]);
    assert.equal(socket.writableCorked, 0, 'uncorked once the turn ended');
    assert.equal(connection.commandCount() - before, 3);
  });
});
