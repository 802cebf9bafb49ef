// GET /metrics (Prometheus text): request counts and durations by route template, error codes,
// limit refusals, image-processing and HTML-filter durations, the PostgreSQL pool, the default
// process metrics; no label carries an id, a handle or a key; METRICS=off and METRICS_TOKEN;
// one registry per app.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describeEachEngine } from '../helpers/engines.js';
import { assertError } from '../helpers/assertions.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { watchSlots } from '../helpers/slot-watch.js';
import { upload, uniqueJpeg } from './media-support.js';
import { describeTenantApp } from '../helpers/tenant-app.js';
import { createPost } from '../helpers/posts.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<Sample[]> {
  const res = await t.request({ method: 'GET', url: '/metrics', headers });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parseMetrics(res.body);
}

/** The value of the one sample with exactly these labels; 0 when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) =>
      s.name === name &&
      JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(Object.entries(labels).sort()),
  );
  assert.ok(found.length <= 1, `one sample of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

describeTenantApp('metrics', { tenant: false }, (suite) => {
  it('counts requests and their durations by method, route template and status, never by path', async () => {
    const { store, key } = await suite.t.tenant();
    const before = await scrape(suite.t);
    const labels = { method: 'GET', route: '/v1/blog/posts/:id', status: '404' };
    for (const id of ['987654321', '987654322']) {
      assertError(await suite.t.request({ method: 'GET', url: `/v1/blog/posts/${id}`, key }), 'not_found');
    }
    assertError(await suite.t.request({ method: 'GET', url: '/no/such/path/5551234' }), 'not_found');
    assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts/1' }), 'unauthorized');
    const after = await scrape(suite.t);

    assert.equal(valueOf(after, 'http_requests_total', labels) - valueOf(before, 'http_requests_total', labels), 2);
    assert.equal(
      valueOf(after, 'http_request_duration_seconds_count', labels) -
        valueOf(before, 'http_request_duration_seconds_count', labels),
      2,
    );
    assert.ok(valueOf(after, 'http_request_duration_seconds_sum', labels) > 0);
    assert.equal(
      valueOf(after, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
      valueOf(after, 'http_request_duration_seconds_count', labels),
    );
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    assert.equal(
      valueOf(after, 'http_requests_total', unmatched) - valueOf(before, 'http_requests_total', unmatched),
      1,
    );
    const refused = { method: 'GET', route: '/v1/blog/posts/:id', status: '401' };
    assert.equal(valueOf(after, 'http_requests_total', refused) - valueOf(before, 'http_requests_total', refused), 1);

    // No label value anywhere is an id, a path, the store's handle or the key.
    const text = (await suite.t.request({ method: 'GET', url: '/metrics' })).body;
    for (const secret of ['987654321', '5551234', store.handle, key.slice(0, 17), 'no/such'])
      assert.ok(!text.includes(secret), `metrics mention ${secret}`);
    const routes = new Set(after.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route));
    for (const route of routes)
      assert.ok(route === 'unmatched' || /^\/[\w/:.-]*$/.test(route!), `route label ${route}`);
  });

  // The hooks behind these counts run on every request in callback style (src/http/metrics.ts):
  // a cached read, the hottest path, must still be counted once, timed, and leave nothing in flight.
  it('counts a cached read once, times it, and leaves no request in flight', async () => {
    const { key } = await suite.t.tenant();
    const url = `/v1/blog/posts/${(await createPost(suite.t, key)).id}`;
    assert.equal((await suite.t.request({ method: 'GET', url, key })).statusCode, 200);
    const before = await scrape(suite.t);
    for (let i = 0; i < 3; i++) assert.equal((await suite.t.request({ method: 'GET', url, key })).statusCode, 200);
    const after = await scrape(suite.t);
    const labels = { method: 'GET', route: '/v1/blog/posts/:id', status: '200' };
    const delta = (name: string) => valueOf(after, name, labels) - valueOf(before, name, labels);
    assert.equal(delta('http_requests_total'), 3);
    assert.equal(delta('http_request_duration_seconds_count'), 3);
    assert.ok(delta('http_request_duration_seconds_sum') > 0);
    assert.equal(valueOf(after, 'http_requests_in_flight'), 0);
  });

  it('counts error answers by code and limit refusals by limit: rate, concurrency, quota', async () => {
    const store = await suite.t.createStore({ changes: { posts_per_day: 1 } });
    const key = await suite.t.issueKey(store, undefined, { readPerMinute: 1, writePerMinute: 100, concurrency: 1 });
    const before = await scrape(suite.t);

    // Rate: the second read within the minute.
    assert.equal((await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key })).statusCode, 200);
    assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key }), 'rate_limited');

    // Quota: the second post of the day.
    const create = (n: number) =>
      suite.t.request({
        method: 'POST',
        url: '/v1/blog/posts',
        key,
        headers: { 'idempotency-key': `m-${n}` },
        body: { title: `Metric ${n}`, body_html: `<p>${n}</p>` },
      });
    assert.equal((await create(1)).statusCode, 201);
    assertError(await create(2), 'quota_exceeded', [
      { field: 'quotas.posts_per_day', issue: 'daily limit of 1 reached' },
    ]);

    // Concurrency: a request held in flight (its body never ends) takes the only slot of a second key.
    const holder = await suite.t.issueKey(await suite.t.createStore(), undefined, {
      concurrency: 1,
      readPerMinute: 10_000,
    });
    const slots = watchSlots(suite.t.ctx);
    const acquired = slots.acquired(holder);
    const body = new PassThrough();
    const held = suite.t.app.inject({
      method: 'POST',
      url: '/v1/blog/posts',
      headers: { authorization: `Bearer ${holder}`, 'content-type': 'application/json', 'idempotency-key': 'm-held' },
      payload: body,
    });
    body.write('{"title":');
    await acquired;
    slots.restore();
    assertError(await suite.t.request({ method: 'GET', url: '/v1/blog/posts', key: holder }), 'concurrency_limited');
    body.end('"Held","body_html":"<p>held</p>"}');
    assert.equal((await held).statusCode, 201);

    const after = await scrape(suite.t);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    assert.equal(delta('blog_api_limit_refusals_total', { limit: 'rate' }), 1);
    assert.equal(delta('blog_api_limit_refusals_total', { limit: 'quota' }), 1);
    assert.equal(delta('blog_api_limit_refusals_total', { limit: 'concurrency' }), 1);
    assert.equal(delta('blog_api_errors_total', { code: 'rate_limited' }), 1);
    assert.equal(delta('blog_api_errors_total', { code: 'quota_exceeded' }), 1);
    assert.equal(delta('blog_api_errors_total', { code: 'concurrency_limited' }), 1);
  });

  it('times image processing and the HTML filter, by outcome', async () => {
    const { key } = await suite.t.tenant();
    const before = await scrape(suite.t);
    assert.equal((await upload(suite.t, key, await uniqueJpeg())).statusCode, 201);
    assertError(await upload(suite.t, key, Buffer.from('not an image at all')), 'unsupported_media_type', [
      { field: 'file', issue: /./ },
    ]);
    const created = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/posts',
      key,
      headers: { 'idempotency-key': 'filtered' },
      body: { title: 'Filtered', body_html: `<p>${'long text '.repeat(200)}</p><script>x()</script>` },
    });
    assert.equal(created.statusCode, 201, created.body);
    const after = await scrape(suite.t);
    const delta = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    assert.equal(delta('blog_api_image_processing_seconds_count', { outcome: 'ok' }), 1);
    assert.equal(delta('blog_api_image_processing_seconds_count', { outcome: 'rejected' }), 1);
    assert.ok(valueOf(after, 'blog_api_image_processing_seconds_sum', { outcome: 'ok' }) > 0);
    assert.ok(delta('blog_api_html_filter_seconds_count', { outcome: 'ok' }) >= 1);
    assert.ok(valueOf(after, 'blog_api_html_filter_seconds_sum', { outcome: 'ok' }) > 0);
  });

  it("reports each background job's runs, failures and last success, read from the job runner", async () => {
    const jobs = suite.t.ctx.jobs;
    const before = jobs.counts()['view-counts']!;
    await jobs.runOnce('view-counts');
    const samples = await scrape(suite.t);
    assert.equal(valueOf(samples, 'blog_api_job_runs_total', { job: 'view-counts' }), before.runs + 1);
    const lastSuccess = valueOf(samples, 'blog_api_job_last_success_timestamp_seconds', { job: 'view-counts' });
    assert.equal(lastSuccess, suite.t.clock.now().getTime() / 1000);
    const counts = jobs.counts();
    const names = Object.keys(counts).sort();
    assert.ok(names.includes('housekeeping') && names.includes('webhook-delivery') && names.includes('view-counts'));
    const labelled = (metric: string) =>
      samples
        .filter((s) => s.name === metric)
        .map((s) => s.labels.job!)
        .sort();
    assert.deepEqual(labelled('blog_api_job_runs_total'), names);
    assert.deepEqual(labelled('blog_api_job_failures_total'), names);
    assert.deepEqual(labelled('blog_api_job_last_success_timestamp_seconds'), names);
    for (const [job, c] of Object.entries(counts)) {
      assert.equal(valueOf(samples, 'blog_api_job_runs_total', { job }), c.runs);
      assert.equal(valueOf(samples, 'blog_api_job_failures_total', { job }), c.failures);
      assert.equal(
        valueOf(samples, 'blog_api_job_last_success_timestamp_seconds', { job }),
        c.lastSuccessAtMs === null ? 0 : c.lastSuccessAtMs / 1000,
      );
    }
  });

  it('reports the database pool on PostgreSQL only, and the default process metrics with event-loop lag', async () => {
    const samples = await scrape(suite.t);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      assert.ok(names.has(name), `has ${name}`);
    }
    const pool = [
      'blog_api_db_pool_connections_in_use',
      'blog_api_db_pool_waiting',
      'blog_api_db_pool_connections_open',
      'blog_api_db_pool_max',
    ];
    if (suite.target.name === 'postgres') {
      assert.equal(valueOf(samples, 'blog_api_db_pool_max'), 10);
      assert.ok(valueOf(samples, 'blog_api_db_pool_connections_open') >= 1);
      assert.equal(valueOf(samples, 'blog_api_db_pool_waiting'), 0);
      assert.ok(valueOf(samples, 'blog_api_db_pool_connections_in_use') >= 0);
    } else {
      for (const name of pool) assert.ok(!names.has(name), `no ${name} on SQLite`);
    }
    assert.ok(names.has('blog_api_connections_pending'));
  });

  it('keeps one registry per app: a second app counts only its own requests', async () => {
    const other = await startTestApp(suite.target);
    try {
      await other.request({ method: 'GET', url: '/livez' });
      const mine = valueOf(await scrape(suite.t), 'http_requests_total', {
        method: 'GET',
        route: '/livez',
        status: '200',
      });
      const theirs = valueOf(await scrape(other), 'http_requests_total', {
        method: 'GET',
        route: '/livez',
        status: '200',
      });
      assert.equal(theirs, 1);
      assert.equal(mine, 0);
    } finally {
      await other.close();
    }
  });
});

describeEachEngine('metrics settings', (target) => {
  it('METRICS=off: there is no /metrics', async () => {
    const t = await startTestApp(target, { METRICS: 'off' });
    try {
      assertError(await t.request({ method: 'GET', url: '/metrics' }), 'not_found');
    } finally {
      await t.close();
    }
  });

  it('METRICS_TOKEN: /metrics asks for it as a bearer token', async () => {
    const token = 'metrics-token-0123456789';
    const t = await startTestApp(target, { METRICS_TOKEN: token });
    try {
      assertError(await t.request({ method: 'GET', url: '/metrics' }), 'unauthorized');
      assertError(
        await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}x` } }),
        'unauthorized',
      );
      assert.ok((await scrape(t, { authorization: `Bearer ${token}` })).length > 0);
      assert.ok(!t.logs.join('').includes(token), 'the token is never logged');
    } finally {
      await t.close();
    }
  });
});
