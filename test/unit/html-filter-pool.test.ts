// Bodies filtered on a worker thread come back exactly as filtered on the event loop.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { filterPostHtml, FILTER_IN_PLACE_BELOW, threadedFilter } from '../../src/modules/posts/index.js';
import { PostHtmlNestingError } from '../../src/modules/posts/html-filter.js';

const payloads: Array<{ payload: string }> = JSON.parse(
  readFileSync(new URL('../fixtures/xss/payloads.json', import.meta.url), 'utf8'),
);

describe('HTML filter on worker threads', () => {
  const pool = threadedFilter(2);
  after(() => pool.close());

  // Long enough to go to a thread: every payload behind an article-sized paragraph.
  const padded = (payload: string) =>
    `<p>${'lorem ipsum '.repeat(Math.ceil(FILTER_IN_PLACE_BELOW / 12))}</p>${payload}`;

  it('returns the same html and warnings as the in-place filter for the whole XSS corpus', async () => {
    const bodies = payloads.map((p) => padded(p.payload));
    const threaded = await Promise.all(bodies.map((body) => pool.filter(body)));
    bodies.forEach((body, i) => assert.deepEqual(threaded[i], filterPostHtml(body), `payload ${i}`));
    assert.ok(
      threaded.some((r) => r.warnings.length > 0),
      'the corpus makes the filter remove things',
    );
  });

  it('filters short bodies in place with the same result', async () => {
    const body = '<p onclick="x()">hi</p><script>alert(1)</script>';
    assert.ok(body.length < FILTER_IN_PLACE_BELOW);
    assert.deepEqual(await pool.filter(body), filterPostHtml(body));
  });

  it('rejects too-deep nesting with the same error class as the in-place filter', async () => {
    const deep = `${'<div>'.repeat(600)}${'x'.repeat(FILTER_IN_PLACE_BELOW)}`;
    assert.throws(() => filterPostHtml(deep), PostHtmlNestingError);
    await assert.rejects(pool.filter(deep), PostHtmlNestingError);
  });

  it('starts again after close', async () => {
    await pool.close();
    const body = padded('<b>bold</b>');
    assert.deepEqual(await pool.filter(body), filterPostHtml(body));
  });
});
