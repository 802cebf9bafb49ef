// Key format and the Authorization header (docs/api-behaviour.md, "Keys"), one row per case.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyParts, looksLikeKey, parseApiKey, parseBearer } from '../../src/modules/keys/key-format.js';

const ID = 'ab12cd34';
const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const KEY = `svc_live_${ID}_${SECRET}`;

describe('key shape', () => {
  const table: Array<[string, string, { keyId: string; secret: string } | null]> = [
    ['a well-formed key', KEY, { keyId: ID, secret: SECRET }],
    ['key id all digits', `svc_live_01234567_${SECRET}`, { keyId: '01234567', secret: SECRET }],
    ['another prefix', `svc_test_${ID}_${SECRET}`, null],
    ['prefix in capitals', `SVC_LIVE_${ID}_${SECRET}`, null],
    ['no prefix', `${ID}_${SECRET}`, null],
    ['key id with a capital', `svc_live_Ab12cd34_${SECRET}`, null],
    ['key id of 7', `svc_live_ab12cd3_${SECRET}`, null],
    ['key id of 9', `svc_live_ab12cd345_${SECRET}`, null],
    ['secret of 31', `svc_live_${ID}_${SECRET.slice(1)}`, null],
    ['secret of 33', `svc_live_${ID}_${SECRET}x`, null],
    ['secret with a dash', `svc_live_${ID}_${SECRET.slice(1)}-`, null],
    ['a dash instead of the underscore', `svc_live_${ID}-${SECRET}`, null],
    ['a space before', ` ${KEY}`, null],
    ['a newline after', `${KEY}\n`, null],
    ['empty', '', null],
  ];
  for (const [why, raw, parsed] of table) {
    it(`${why} → ${parsed ? 'parsed' : 'not a key'}`, () => assert.deepEqual(parseApiKey(raw), parsed));
  }

  it('a generated key has the shape, and parses back into its parts', () => {
    for (let i = 0; i < 20; i++) {
      const { keyId, secret, key } = generateKeyParts();
      assert.deepEqual(parseApiKey(key), { keyId, secret });
    }
  });
});

describe('Authorization header', () => {
  const table: Array<[string, string | undefined, string | null]> = [
    ['Bearer, one space, the key', `Bearer ${KEY}`, KEY],
    ['bearer in lower case', `bearer ${KEY}`, KEY],
    ['BEARER in capitals', `BEARER ${KEY}`, KEY],
    ['no header', undefined, null],
    ['two spaces', `Bearer  ${KEY}`, null],
    ['a tab instead of the space', `Bearer\t${KEY}`, null],
    ['a leading space', ` Bearer ${KEY}`, null],
    ['a trailing space', `Bearer ${KEY} `, null],
    ['Bearer alone', 'Bearer', null],
    ['Bearer and a space', 'Bearer ', null],
    ['another scheme', `Basic ${KEY}`, null],
    ['the key without a scheme', KEY, null],
    ['two words after Bearer', `Bearer ${KEY} ${KEY}`, null],
  ];
  for (const [why, header, key] of table) {
    it(`${why} → ${key ? 'the key' : 'no credential (401)'}`, () => assert.equal(parseBearer(header), key));
  }
});

describe('text that could carry a key (kept out of request ids and logs)', () => {
  const table: Array<[string, boolean]> = [
    [KEY, true],
    [`req-${KEY}-x`, true],
    ['SVC_LIVE', true],
    [`${ID}_${SECRET}`, true],
    ['req-2026-09-14-abc', false],
    ['ab12cd34', false],
    ['', false],
  ];
  for (const [text, carries] of table) {
    it(`${JSON.stringify(text.slice(0, 24))} → ${carries ? 'refused' : 'fine'}`, () =>
      assert.equal(looksLikeKey(text), carries));
  }
});
