// The search text of a post and the terms of a query (src/lib/search-text.ts): words are split
// on JavaScript's white space, each kept once in the order it first occurs. The scan that does
// it must give exactly what splitting with the regular expression `/\s+/u` gives, which is the
// definition the rule states; these tests hold that definition as the reference.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isWhiteSpace, searchTerms, searchText } from '../../src/lib/search-text.js';
import { random } from '../helpers/html-bodies.js';

/** The rule as first written: split on `\s+`, distinct, joined; empty words dropped. */
const referenceWords = (text: string) => [...new Set(text.toLowerCase().split(/\s+/u))].filter((w) => w.length > 0);

describe('white space', () => {
  it('is exactly the \\s of regular expressions, for every UTF-16 code unit', () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (isWhiteSpace(code) !== /\s/u.test(String.fromCharCode(code))) differing.push(code.toString(16));
    }
    assert.deepEqual(differing, []);
  });
});

describe('searchText', () => {
  it('removes inline tags without a break, turns other tags into breaks, decodes entities, keeps each word once', () => {
    assert.equal(
      searchText(
        'Pan Cakes',
        'The  Summary',
        '<h2>Pan<em>cake</em>s &amp; more</h2><p>cakes&nbsp;and\u3000茶葉蛋<br>PAN&#x41;</p><p>pan</p>',
      ),
      'pan cakes the summary pancakes & more and 茶葉蛋 pana',
    );
  });

  it('has no leading or trailing space when the title, summary or body start or end with white space', () => {
    assert.equal(searchText('', null, '<p> word </p>'), 'word');
    assert.equal(searchText('\t', '\n', ''), '');
  });

  it('keeps the words the reference split gives, in the same order, on mixed texts', () => {
    const pieces = [
      'Word',
      'wORD',
      '字',
      '𠀋𠀋',
      ' ',
      '  ',
      '\t',
      '\n',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\ufeff',
      '\u200b',
      'ΣΑΣ',
      'x',
    ];
    const next = random(12345);
    const below = (n: number) => Math.floor(next() * n);
    for (let round = 0; round < 500; round++) {
      let text = '';
      for (let i = below(40); i > 0; i--) text += pieces[below(pieces.length)];
      assert.equal(searchText(text, null, ''), referenceWords(`${text}  `).join(' '), JSON.stringify(text));
    }
  });
});

describe('searchTerms', () => {
  it('splits a query on white space, lower-cased, without empty or repeated terms', () => {
    assert.deepEqual(searchTerms('  Butter\u3000summer butter\t蛋糕 '), ['butter', 'summer', '蛋糕']);
    assert.deepEqual(searchTerms(' \u00a0 '), []);
  });
});
