// The per-request metrics are counted by RequestTally, not by prom-client's classes; their
// exposition must be exactly what prom-client's own counter and histogram give for the same
// answers, so dashboards and alert rules read them unchanged.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Histogram, Registry, type Metric } from 'prom-client';
import { RequestTally } from '../../src/http/request-tally.js';

const BOUNDS = [0.001, 0.005, 0.01, 0.1, 1];
const NAME = 'http_request_duration_seconds';
const COUNT = 'http_requests_total';

function answers(): Array<[string, string, number, number]> {
  // Edges on the bounds themselves, above the last bound, repeats, several series.
  const out: Array<[string, string, number, number]> = [];
  const durations = [0.0005, 0.001, 0.0011, 0.005, 0.009, 0.1, 0.5, 1, 1.5, 30];
  durations.forEach((d, i) => {
    out.push(['GET', '/v1/blog/posts/:id', 200, d]);
    if (i % 2 === 0) out.push(['GET', '/v1/blog/posts/:id', 304, d]);
    if (i % 3 === 0) out.push(['POST', '/v1/blog/posts', 201, d * 3]);
    out.push(['GET', 'unmatched', 404, d / 2]);
  });
  return out;
}

describe('request metrics', () => {
  it('expose the same text as prom-client counting the same answers', async () => {
    const ours = new Registry();
    const tally = new RequestTally(BOUNDS);
    ours.registerMetric(tally.counter(COUNT, 'answers') as unknown as Metric);
    ours.registerMetric(tally.histogram(NAME, 'durations') as unknown as Metric);

    const theirs = new Registry();
    const labelNames = ['method', 'route', 'status'] as const;
    const counter = new Counter({ name: COUNT, help: 'answers', labelNames, registers: [theirs] });
    const histogram = new Histogram({
      name: NAME,
      help: 'durations',
      labelNames,
      buckets: BOUNDS,
      registers: [theirs],
    });

    for (const [method, route, status, seconds] of answers()) {
      tally.record(method, route, status, seconds);
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    const text = await ours.metrics();
    assert.equal(text, await theirs.metrics());
    assert.match(
      text,
      /^http_request_duration_seconds_bucket\{le="0.001",method="GET",route="\/v1\/blog\/posts\/:id",status="200"\} 2$/m,
    );
  });

  it('starts again from nothing when the registry is reset', async () => {
    const registry = new Registry();
    const tally = new RequestTally(BOUNDS);
    registry.registerMetric(tally.counter(COUNT, 'answers') as unknown as Metric);
    tally.record('GET', '/livez', 200, 0.002);
    assert.match(await registry.metrics(), /^http_requests_total\{method="GET",route="\/livez",status="200"\} 1$/m);
    registry.resetMetrics();
    tally.record('GET', '/livez', 200, 0.002);
    assert.match(await registry.metrics(), /^http_requests_total\{method="GET",route="\/livez",status="200"\} 1$/m);
  });
});
