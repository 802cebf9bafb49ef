// Page cursor rules (docs/api-behaviour.md, "Cursors": signed, carrying the query
// conditions, bound to the caller), one row per case.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CursorCodec, type CursorHolder, type CursorReading } from '../../src/lib/cursor.js';
import { ApiError } from '../../src/lib/api-error.js';
import { hmacBase64Url } from '../../src/lib/crypto.js';

const SECRET = 'cursor-test-secret';
const codec = new CursorCodec(SECRET);
const SCOPE = 'posts';
const CONDITIONS = { status: 'published', category_id: 3, limit: 20 };
const HOLDER: CursorHolder = { storeId: 7, application: 'shop-app' };
const POSITION = [1789000000000, 42];
const issued = codec.encode(SCOPE, CONDITIONS, POSITION, HOLDER);

/** A cursor with this payload, signed as the service signs (to test what a genuine cursor may hold). */
const signed = (payload: unknown) => {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${hmacBase64Url(SECRET, body)}`;
};
const [issuedPayload] = issued.split('.');
const issuedFields = JSON.parse(Buffer.from(issuedPayload, 'base64url').toString('utf8'));

describe('reading a cursor', () => {
  const firstPage: CursorReading = { kind: 'first-page' };
  const invalid: CursorReading = { kind: 'invalid' };
  const table: Array<
    [
      string,
      { scope?: string; conditions?: Record<string, unknown>; cursor: string | undefined; holder?: CursorHolder },
      CursorReading,
    ]
  > = [
    ['no cursor: the first page', { cursor: undefined }, firstPage],
    [
      'its own cursor, same conditions: where the last page ended',
      { cursor: issued },
      { kind: 'continue', position: POSITION },
    ],
    [
      'the same conditions in another order',
      { cursor: issued, conditions: { limit: 20, category_id: 3, status: 'published' } },
      { kind: 'continue', position: POSITION },
    ],
    [
      'changed conditions: paging restarts',
      { cursor: issued, conditions: { ...CONDITIONS, status: 'draft' } },
      firstPage,
    ],
    ['a condition added: paging restarts', { cursor: issued, conditions: { ...CONDITIONS, q: 'x' } }, firstPage],
    ['another listing (scope): paging restarts', { cursor: issued, scope: 'audit' }, firstPage],
    ['another store', { cursor: issued, holder: { ...HOLDER, storeId: 8 } }, invalid],
    [
      'another key application of the same store',
      { cursor: issued, holder: { ...HOLDER, application: 'other-app' } },
      invalid,
    ],
    [
      'signed with another secret',
      { cursor: new CursorCodec('another-secret').encode(SCOPE, CONDITIONS, POSITION, HOLDER) },
      invalid,
    ],
    [
      'payload changed, signature kept',
      {
        cursor: `${Buffer.from(JSON.stringify({ ...issuedFields, p: [0, 1] })).toString('base64url')}.${issued.split('.')[1]}`,
      },
      invalid,
    ],
    ['signature cut short', { cursor: issued.slice(0, -1) }, invalid],
    ['empty string', { cursor: '' }, invalid],
    ['no signature', { cursor: issuedPayload }, invalid],
    ['only a dot', { cursor: '.' }, invalid],
    ['made up', { cursor: 'abc.def' }, invalid],
    ['longer than 512 characters', { cursor: `${issued}${'A'.repeat(513)}` }, invalid],
    [
      'signed, but not JSON',
      {
        cursor: `${Buffer.from('not json').toString('base64url')}.${hmacBase64Url(SECRET, Buffer.from('not json').toString('base64url'))}`,
      },
      invalid,
    ],
    ['signed, position not a list', { cursor: signed({ ...issuedFields, p: 'x' }) }, invalid],
    ['signed, position holding an object', { cursor: signed({ ...issuedFields, p: [{}] }) }, invalid],
  ];
  for (const [why, input, reading] of table) {
    it(`${why} → ${reading.kind}`, () => {
      assert.deepEqual(
        codec.decode(input.scope ?? SCOPE, input.conditions ?? CONDITIONS, input.cursor, input.holder ?? HOLDER),
        reading,
      );
    });
  }

  it('a cursor is URL-safe text: base64url payload, a dot, a base64url signature', () => {
    assert.match(issued, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('a cursor not issued to the caller is 422 validation_failed naming cursor; a restart is the first page', () => {
    assert.throws(
      () => codec.readPosition(SCOPE, CONDITIONS, 'abc.def', HOLDER),
      (err: unknown) =>
        err instanceof ApiError &&
        err.code === 'validation_failed' &&
        JSON.stringify(err.details).includes('"field":"cursor"'),
    );
    assert.equal(codec.readPosition(SCOPE, { ...CONDITIONS, status: 'draft' }, issued, HOLDER), undefined);
    assert.deepEqual(codec.readPosition(SCOPE, CONDITIONS, issued, HOLDER), POSITION);
  });
});

describe('cutting a page', () => {
  const rows = [{ id: 5 }, { id: 4 }, { id: 3 }];
  const positionOf = (row: { id: number }) => [row.id];
  // [rows fetched (limit + 1 asked for), limit, ids on the page, position the next cursor continues from, or null on the last page]
  const table: Array<[number, number, number[], number[] | null]> = [
    [3, 2, [5, 4], [4]],
    [2, 2, [5, 4], null],
    [1, 2, [5], null],
    [0, 2, [], null],
  ];
  for (const [fetched, limit, ids, next] of table) {
    it(`${fetched} rows for limit ${limit}: ${ids.length} on the page, ${next ? 'a cursor to the next' : 'no next cursor'}`, () => {
      const page = codec.page(SCOPE, CONDITIONS, rows.slice(0, fetched), limit, positionOf, HOLDER);
      assert.deepEqual(
        page.rows.map((r) => r.id),
        ids,
      );
      if (next === null) assert.equal(page.nextCursor, null);
      else
        assert.deepEqual(codec.decode(SCOPE, CONDITIONS, page.nextCursor!, HOLDER), {
          kind: 'continue',
          position: next,
        });
    });
  }
});
