// RedisHealth: Redis errors sorted by kind, logged at most once per interval per kind (with how
// many were not), and shown as recent for a minute (the clock is injected).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../src/lib/clock.js';
import { RedisHealth, redisErrorKind, type RedisErrorLogEntry } from '../../src/traffic/redis-health.js';
import { TrafficBackendError } from '../../src/traffic/backend-error.js';

describe('Redis errors by kind', () => {
  it('sorts the errors Redis and the client give by kind, looking through the wrappers', () => {
    const cases: Array<[unknown, string]> = [
      [
        new TrafficBackendError('admit', new Error("OOM command not allowed when used memory > 'maxmemory'.")),
        'out_of_memory',
      ],
      [new Error("READONLY You can't write against a read only replica."), 'read_only'],
      [new Error('Command timed out'), 'timeout'],
      [new Error('connect ECONNREFUSED 127.0.0.1:1'), 'unreachable'],
      [new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'unreachable'],
      [new Error('Connection is closed.'), 'unreachable'],
      [new Error('LOADING Redis is loading the dataset in memory'), 'unreachable'],
      [new Error('ERR something else'), 'other'],
    ];
    for (const [err, kind] of cases) assert.equal(redisErrorKind(err), kind, String(err));
  });

  it('logs once per kind per minute, counts every error, and keeps a kind recent for a minute', () => {
    const clock = new ManualClock('2030-01-01T00:00:00Z');
    const health = new RedisHealth(clock);
    const lines: RedisErrorLogEntry[] = [];
    health.setLog((entry) => lines.push(entry));
    const seen: string[] = [];
    health.onError((kind) => seen.push(kind));
    const oom = new Error('OOM command not allowed');
    for (let i = 0; i < 1000; i++) health.record(oom);
    health.record(new Error('Command timed out'));
    assert.deepEqual(
      lines.map((l) => [l.kind, l.suppressed]),
      [
        ['out_of_memory', 0],
        ['timeout', 0],
      ],
    );
    assert.equal(health.total('out_of_memory'), 1000);
    assert.equal(seen.length, 1001);
    assert.deepEqual(
      health.recent().map((r) => [r.kind, r.count]),
      [
        ['out_of_memory', 1000],
        ['timeout', 1],
      ],
    );
    clock.advance(59_999);
    health.record(oom);
    assert.equal(lines.length, 2, 'still within the minute');
    clock.advance(1);
    health.record(oom);
    assert.deepEqual(lines.map((l) => [l.kind, l.suppressed]).at(-1), ['out_of_memory', 1000]);
    clock.advance(60_000);
    assert.deepEqual(health.recent(), []);
    // A faulty logger or listener never makes record() throw.
    health.setLog(() => {
      throw new Error('logger broke');
    });
    health.onError(() => {
      throw new Error('listener broke');
    });
    assert.equal(health.record(oom), 'out_of_memory');
  });
});
