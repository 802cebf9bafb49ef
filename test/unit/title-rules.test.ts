// Title rules (docs/api-behaviour.md, "Posts": limits.title_max_length 200 code points after trimming,
// limits.title_allows_emoji; the title_charset_unsupported issue names the characters).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkTitle,
  describeCharacters,
  normalizeTitle,
  type TitleProblem,
} from '../../src/modules/posts/title-rules.js';

const MAX = 200;
const withEmoji = { maxLength: MAX, allowsEmoji: true };
const withoutEmoji = { maxLength: MAX, allowsEmoji: false };

describe('title trimming', () => {
  const table: Array<[string, string]> = [
    ['  Hello world  ', 'Hello world'],
    ['\tTabbed\n', 'Tabbed'],
    ['\u3000全形空白\u3000', '全形空白'],
    ['inner  spaces  stay', 'inner  spaces  stay'],
    ['   ', ''],
  ];
  for (const [raw, trimmed] of table) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(trimmed)}`, () => assert.equal(normalizeTitle(raw), trimmed));
  }
});

describe('title checks', () => {
  // [title (already trimmed), problem for a store with emoji, problem for a store without]
  const table: Array<[string, string, TitleProblem | null, TitleProblem | null]> = [
    ['Hello', 'plain text', null, null],
    ['', 'empty after trimming', { kind: 'empty' }, { kind: 'empty' }],
    ['字'.repeat(MAX), '200 CJK characters', null, null],
    ['字'.repeat(MAX + 1), '201 CJK characters', { kind: 'too_long', max: MAX }, { kind: 'too_long', max: MAX }],
    [
      '😀'.repeat(MAX),
      '200 emoji count as 200 code points, not 400 UTF-16 units',
      null,
      { kind: 'unsupported_characters', characters: ['😀'] },
    ],
    ['😀'.repeat(MAX + 1), '201 emoji', { kind: 'too_long', max: MAX }, { kind: 'too_long', max: MAX }],
    ['bell\u0007', 'a C0 control character', { kind: 'control_characters' }, { kind: 'control_characters' }],
    ['tab\there', 'a tab', { kind: 'control_characters' }, { kind: 'control_characters' }],
    ['next\u0085line', 'a C1 control character', { kind: 'control_characters' }, { kind: 'control_characters' }],
    ['del\u007f', 'DEL', { kind: 'control_characters' }, { kind: 'control_characters' }],
    ['Nice 😀 day 😀', 'an emoji, twice', null, { kind: 'unsupported_characters', characters: ['😀'] }],
    [
      'Love ❤️',
      'a BMP pictograph with its variation selector',
      null,
      { kind: 'unsupported_characters', characters: ['❤', '\ufe0f'] },
    ],
    [
      'Family 👨‍👩‍👧',
      'a joined emoji sequence',
      null,
      { kind: 'unsupported_characters', characters: ['👨', '\u200d', '👩', '👧'] },
    ],
    [
      'Rare 𠀀',
      'a CJK character outside the BMP (4 bytes in UTF-8)',
      null,
      { kind: 'unsupported_characters', characters: ['𠀀'] },
    ],
    ['Café — “quoted” ½ €', 'accents, dashes, quotes and symbols in the BMP', null, null],
  ];
  for (const [title, why, withProblem, withoutProblem] of table) {
    it(`${why}: ${withProblem?.kind ?? 'accepted'} / without emoji: ${withoutProblem?.kind ?? 'accepted'}`, () => {
      assert.deepEqual(checkTitle(title, withEmoji), withProblem);
      assert.deepEqual(checkTitle(title, withoutEmoji), withoutProblem);
    });
  }
});

describe('naming refused characters', () => {
  const table: Array<[string[], string]> = [
    [['😀'], '😀 (U+1F600)'],
    [['❤', '\ufe0f'], '❤ (U+2764), \ufe0f (U+FE0F)'],
    [['𠀀'], '𠀀 (U+20000)'],
  ];
  for (const [characters, text] of table) {
    it(`${JSON.stringify(characters)} → ${JSON.stringify(text)}`, () =>
      assert.equal(describeCharacters(characters), text));
  }
});
