// The states-and-transitions rules for publish (docs/api-behaviour.md, "Posts"), row by row, on the pure rules: the
// status derived from the publish time, and what publish decides. (Unpublish, delete and the
// HTTP answers are covered row by row in test/api/posts-lifecycle.test.ts.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decidePublish, deriveStatus, type PostStatus } from '../../src/modules/posts/post-state.js';

const NOW = Date.parse('2026-09-15T10:00:00+08:00');
const HOUR = 3_600_000;
const PAST = NOW - 24 * HOUR;
const FUTURE = NOW + 24 * HOUR;

/** A publish time that puts a post in the given state now. */
const publishedAtFor: Record<PostStatus, number | null> = {
  draft: null,
  scheduled: NOW + 2 * HOUR,
  published: NOW - 2 * HOUR,
};

describe('status derived from the publish time', () => {
  const table: Array<[number | null, PostStatus, string]> = [
    [null, 'draft', 'no publish time'],
    [PAST, 'published', 'a time in the past'],
    [NOW, 'published', 'exactly now: the moment passes, it is published'],
    [NOW + 1, 'scheduled', 'one millisecond ahead'],
    [FUTURE, 'scheduled', 'a time in the future'],
  ];
  for (const [publishedAt, status, why] of table) {
    it(`${why} → ${status}`, () => assert.equal(deriveStatus(publishedAt, NOW), status));
  }

  it('a scheduled post becomes published when its time comes, with nothing run', () => {
    assert.equal(deriveStatus(FUTURE, FUTURE - 1), 'scheduled');
    assert.equal(deriveStatus(FUTURE, FUTURE), 'published');
  });
});

describe('publish, per the documented rules', () => {
  // [current state, requested published_at (null: omitted), next state, publish time after, changed, audit action]
  const table: Array<[PostStatus, number | null, PostStatus, number, boolean, string, string]> = [
    ['draft', null, 'published', NOW, true, 'post.published', 'published_at omitted: immediate publication'],
    ['draft', PAST, 'published', PAST, true, 'post.published', 'a past time: back-dated publication'],
    ['draft', FUTURE, 'scheduled', FUTURE, true, 'post.scheduled', 'a future time: scheduled'],
    ['scheduled', FUTURE, 'scheduled', FUTURE, true, 'post.scheduled', 'a new future time: schedule time changed'],
    ['scheduled', null, 'published', NOW, true, 'post.published', 'time omitted: publication takes effect now'],
    ['scheduled', PAST, 'published', PAST, true, 'post.published', 'a past time: publication takes effect, back-dated'],
    ['published', FUTURE, 'scheduled', FUTURE, true, 'post.scheduled', 'a future time: returned to scheduled'],
    ['published', PAST, 'published', PAST, true, 'post.published', 'only a time change: per the time given'],
    [
      'published',
      null,
      'published',
      NOW - 2 * HOUR,
      false,
      'post.published',
      'time omitted: already published, nothing changes',
    ],
  ];
  for (const [from, requested, to, publishedAt, changed, action, why] of table) {
    it(`${from} → publish (${why}) → ${to}`, () => {
      const decision = decidePublish(publishedAtFor[from], requested, NOW);
      assert.deepEqual(decision, { publishedAt, changed, action });
      assert.equal(deriveStatus(decision.publishedAt, NOW), to);
    });
  }

  it('the same time again changes nothing', () => {
    assert.deepEqual(decidePublish(PAST, PAST, NOW), { publishedAt: PAST, changed: false, action: 'post.published' });
    assert.deepEqual(decidePublish(FUTURE, FUTURE, NOW), {
      publishedAt: FUTURE,
      changed: false,
      action: 'post.scheduled',
    });
  });
});
