// The circuit breaker (src/lib/circuit-breaker.ts): opens after the threshold of timeouts in a
// row (a success between resets the count), fails callers at once while open, probes on the
// injected timers, and closes on the first probe that answers.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker, CircuitOpenError } from '../../src/lib/circuit-breaker.js';
import { manualTimers } from '../helpers/manual-timers.js';

function breakerWith(probeAnswers: () => boolean) {
  const timers = manualTimers();
  let probes = 0;
  const states: string[] = [];
  const breaker = new CircuitBreaker({
    name: 'thing',
    threshold: 3,
    probeIntervalMs: 1000,
    timers,
    probe: async () => {
      probes += 1;
      if (!probeAnswers()) throw new Error('no answer');
    },
  });
  breaker.onChange((state) => states.push(state));
  return { breaker, timers, states, probes: () => probes };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

it('opens after three timeouts in a row, not when a success comes between', () => {
  const { breaker, states } = breakerWith(() => false);
  breaker.timeout();
  breaker.timeout();
  breaker.success();
  breaker.timeout();
  breaker.timeout();
  assert.equal(breaker.state, 'closed');
  assert.doesNotThrow(() => breaker.check());
  breaker.timeout();
  assert.equal(breaker.state, 'open');
  assert.deepEqual(states, ['open']);
  assert.throws(
    () => breaker.check(),
    (err: unknown) => err instanceof CircuitOpenError && err.dependency === 'thing',
  );
  assert.equal(breaker.opens, 1);
});

it('probes once per interval while open and closes on the first answer', async () => {
  let up = false;
  const { breaker, timers, states, probes } = breakerWith(() => up);
  for (let i = 0; i < 3; i++) breaker.timeout();
  assert.equal(probes(), 0, 'no probe before the interval');
  timers.tick(1000);
  await settle();
  assert.equal(probes(), 1);
  assert.equal(breaker.state, 'open');
  timers.tick(999);
  await settle();
  assert.equal(probes(), 1, 'the next probe waits a whole interval');
  up = true;
  timers.tick(1);
  await settle();
  assert.equal(probes(), 2);
  assert.equal(breaker.state, 'closed');
  assert.deepEqual(states, ['open', 'closed']);
  assert.equal(timers.pending(), 0, 'no probe left once closed');
  // Closed again: the count starts from zero.
  breaker.timeout();
  breaker.timeout();
  assert.equal(breaker.state, 'closed');
});

it('turned off, it never opens; stopped, it probes no more', async () => {
  const off = breakerWith(() => false);
  off.breaker.enabled = false;
  for (let i = 0; i < 10; i++) off.breaker.timeout();
  assert.equal(off.breaker.state, 'closed');

  const stopped = breakerWith(() => false);
  for (let i = 0; i < 3; i++) stopped.breaker.timeout();
  stopped.breaker.stop();
  stopped.timers.tick(5000);
  await settle();
  assert.equal(stopped.probes(), 0);
});
