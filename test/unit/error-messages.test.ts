// The error catalogue holds every code's message in every language, and Accept-Language picks
// one as RFC 9110 says (q-values, case, wildcards), falling back to Traditional Chinese.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_MESSAGE_LANGUAGE,
  ERROR_CATALOGUE,
  ERROR_CODES,
  MESSAGE_LANGUAGES,
  messageOf,
} from '../../src/lib/error-catalogue.js';
import { messageLanguageOf } from '../../src/lib/message-language.js';

const HAN = /\p{Script=Han}/u;

describe('error catalogue', () => {
  it('has Traditional Chinese (the default) and English', () => {
    assert.deepEqual([...MESSAGE_LANGUAGES], ['zh-TW', 'en']);
    assert.equal(DEFAULT_MESSAGE_LANGUAGE, 'zh-TW');
  });

  for (const code of ERROR_CODES) {
    it(`${code}: a message in each language, and nothing else`, () => {
      const messages = ERROR_CATALOGUE[code].messages as Record<string, unknown>;
      assert.deepEqual(Object.keys(messages).sort(), [...MESSAGE_LANGUAGES].sort());
      const zh = messageOf(code, 'zh-TW');
      const en = messageOf(code, 'en');
      assert.match(zh, HAN, 'the zh-TW message is Chinese');
      assert.match(zh, /。$/, 'the zh-TW message ends a sentence');
      assert.doesNotMatch(en, HAN, 'the English message has no Chinese');
      assert.match(en, /^[A-Z].{20,}\.$/s, 'the English message is sentences');
      // Both say the next step: at least two sentences (what happened, what to do).
      assert.ok(en.split('. ').length >= 2, `${code}: en names a next step`);
      assert.ok(zh.split('。').length >= 3, `${code}: zh-TW names a next step`);
    });
  }
});

describe('Accept-Language', () => {
  const cases: Array<[string | string[] | undefined, 'zh-TW' | 'en']> = [
    [undefined, 'zh-TW'],
    ['', 'zh-TW'],
    ['en', 'en'],
    ['EN', 'en'],
    ['en-GB', 'en'],
    ['en-us', 'en'],
    ['en-Latn-US', 'en'],
    ['fr;q=1, en;q=0.5', 'en'],
    ['fr, en;Q=0.1', 'en'],
    ['zh-TW', 'zh-TW'],
    ['zh-tw', 'zh-TW'],
    ['zh', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-CN, en;q=0.5', 'zh-TW'],
    ['zh-TW;q=0.8, en', 'en'],
    ['en;q=0.8, zh-TW', 'zh-TW'],
    ['en, zh-TW', 'en'],
    ['zh-TW, en', 'zh-TW'],
    ['en;q=0', 'zh-TW'],
    ['en;q=0, *', 'zh-TW'],
    ['*', 'zh-TW'],
    ['*;q=0.5, en', 'en'],
    ['*, en;q=0.5', 'zh-TW'],
    ['fr, *;q=0.1', 'zh-TW'],
    ['fr', 'zh-TW'],
    ['de-DE, ja;q=0.9', 'zh-TW'],
    ['garbage', 'zh-TW'],
    ['!!!, ;;;, q=1', 'zh-TW'],
    ['en;q=abc', 'zh-TW'],
    [';q=0.5', 'zh-TW'],
    ['english', 'zh-TW'],
    ['  en  ', 'en'],
    [['fr', 'en;q=0.4'], 'en'],
    [`${'x-'.repeat(600)}, en`, 'zh-TW'],
  ];
  for (const [header, expected] of cases) {
    it(`${JSON.stringify(header)?.slice(0, 40)} → ${expected}`, () => {
      assert.equal(messageLanguageOf(header), expected);
    });
  }
});
