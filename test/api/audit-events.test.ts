import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertError } from '../helpers/assertions.js';
import { recordAudit } from '../../src/modules/audit/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

describeTenantApp('GET /v1/audit/events', { scopes: ['read_audit'] }, (suite) => {
  const base = Date.parse('2026-09-15T00:00:00Z');
  before(async () => {
    for (let i = 0; i < 7; i++) {
      await recordAudit(
        suite.t.ctx.db,
        { storeId: suite.store.id, keyId: i % 2 ? 'aaaaaaaa' : 'bbbbbbbb', application: 'app', requestId: `r${i}` },
        {
          action: i % 2 ? 'post.updated' : 'post.created',
          resourceType: 'post',
          resourceId: i,
          changes: ['title'],
          at: base + i * 60_000,
        },
      );
    }
    const other = await suite.t.createStore();
    await recordAudit(
      suite.t.ctx.db,
      { storeId: other.id, keyId: null, application: null, requestId: null },
      { action: 'post.created', resourceType: 'post', resourceId: 99, changes: [], at: base },
    );
  });

  const list = (query: string) => suite.t.request({ method: 'GET', url: `/v1/audit/events${query}`, key: suite.key });

  it('lists this store’s events newest first with every field', async () => {
    const res = await list('');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.data.length, 7);
    assert.deepEqual(body.meta, { next_cursor: null, limit: 20 });
    assert.deepEqual(
      body.data.map((e: any) => e.resource_id),
      ['6', '5', '4', '3', '2', '1', '0'],
    );
    assert.deepEqual(Object.keys(body.data[0]).sort(), [
      'action',
      'application',
      'changes',
      'id',
      'key_id',
      'occurred_at',
      'request_id',
      'resource_id',
      'resource_type',
    ]);
    assert.equal(body.data[6].occurred_at, '2026-09-15T08:00:00+08:00');
    assert.deepEqual(body.data[0].changes, ['title']);
  });

  it('pages with signed cursors until next_cursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.statusCode, 200);
      const body = res.json();
      seen.push(...body.data.map((e: any) => e.resource_id));
      cursor = body.meta.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ['6', '5', '4', '3', '2', '1', '0']);
  });

  it('filters by action, key_id, resource and time window', async () => {
    const byAction = (await list('?action=post.updated')).json().data;
    assert.deepEqual(
      byAction.map((e: any) => e.resource_id),
      ['5', '3', '1'],
    );
    const byKey = (await list('?key_id=bbbbbbbb&resource_type=post')).json().data;
    assert.deepEqual(
      byKey.map((e: any) => e.resource_id),
      ['6', '4', '2', '0'],
    );
    const byId = (await list('?resource_id=4')).json().data;
    assert.deepEqual(
      byId.map((e: any) => e.resource_id),
      ['4'],
    );
    const windowed = (
      await list(
        `?since=${encodeURIComponent('2026-09-15T08:02:00+08:00')}&until=${encodeURIComponent('2026-09-15T00:05:00Z')}`,
      )
    ).json().data;
    assert.deepEqual(
      windowed.map((e: any) => e.resource_id),
      ['4', '3', '2'],
    );
  });

  it('refuses a forged or corrupted cursor with 422 naming cursor', async () => {
    const cursor: string = (await list('?limit=2')).json().meta.next_cursor;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of ['abc', 'x.y', tampered, Buffer.from('{"c":"x","p":[1]}').toString('base64url')]) {
      assertError(await list(`?cursor=${encodeURIComponent(bad)}`), 'validation_failed', [
        { field: 'cursor', issue: 'was not issued to this caller; omit it to start from the first page' },
      ]);
    }
  });

  it('restarts at the first page when the conditions change under a cursor', async () => {
    const cursor: string = (await list('?limit=2')).json().meta.next_cursor;
    const res = (await list(`?limit=2&action=post.created&cursor=${encodeURIComponent(cursor)}`)).json();
    assert.deepEqual(
      res.data.map((e: any) => e.resource_id),
      ['6', '4'],
    );
  });

  it('validates limit and the time filters', async () => {
    assertError(await list('?limit=51'), 'validation_failed', [{ field: 'limit', issue: 'must be <= 50' }]);
    assertError(await list('?limit=abc'), 'validation_failed', [{ field: 'limit', issue: 'must be integer' }]);
    assertError(await list('?since=2026-09-15'), 'validation_failed', [{ field: 'since', issue: /time-zone offset/ }]);
    assertError(await list('?until=2026-09-15T10:00:00'), 'validation_failed', [
      { field: 'until', issue: /time-zone offset/ },
    ]);
  });
});
