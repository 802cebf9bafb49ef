// The streaming filter must store exactly what the sanitize-html configuration it replaced
// stored, and report exactly the same warnings: same html, same warnings in the same order, same
// refusals. Checked on the XSS corpus, its filtered output, generated markup and markup cut and
// spliced from both at random.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PostHtmlNestingError, sanitizePostHtml, type FilteredHtml } from '../../src/modules/posts/html-filter.js';
import { MAX_NESTING_DEPTH } from '../../src/modules/posts/html-allow-list.js';
import { generateBody, random } from '../helpers/html-bodies.js';
import { referenceFilterHtml } from '../helpers/sanitize-html-filter.js';
import { articleHtml } from '../../bench/lib/seed.js';

const payloads: Array<{ payload: string }> = JSON.parse(
  readFileSync(new URL('../fixtures/xss/payloads.json', import.meta.url), 'utf8'),
);

type Outcome = FilteredHtml | 'too deep';

function outcome(filter: (html: string) => FilteredHtml, body: string): Outcome {
  try {
    return filter(body);
  } catch (err) {
    if (err instanceof PostHtmlNestingError) return 'too deep';
    throw err;
  }
}

/** Both filters on one body; returns a description of the difference, or null. */
function difference(body: string): string | null {
  const streamed = outcome(sanitizePostHtml, body);
  const reference = outcome(referenceFilterHtml, body);
  try {
    assert.deepEqual(streamed, reference);
    return null;
  } catch {
    return `${JSON.stringify(body)}\n  streaming: ${JSON.stringify(streamed)}\n  reference: ${JSON.stringify(reference)}`;
  }
}

function assertSame(bodies: Iterable<string>): number {
  const failures: string[] = [];
  let count = 0;
  for (const body of bodies) {
    count++;
    const d = difference(body);
    if (d !== null) failures.push(d);
  }
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${count} bodies differ`);
  return count;
}

/** Pieces of markup that stress the tokenizer where it matters: tag and attribute syntax. */
const FRAGMENTS = [
  '<',
  '</',
  '>',
  '/>',
  '=',
  '"',
  "'",
  '`',
  ' ',
  '\t',
  '\n',
  '\0',
  '&',
  '&#',
  '&#x',
  ';',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<!DOCTYPE html>',
  '<?xml?>',
  '</p>',
  '</br>',
  '</a >',
  '<a href=',
  ' target=_BLANK ',
  ' rel=',
  ' class=" language-x  hljs "',
  ' class="language-a\tlanguage-b"',
  ' href="  "',
  ' href="jav<!-- x -->ascript:a"',
  ' src="\u00a0"',
  ' reversed',
  ' alt',
  ' title="  "',
  '<A HREF="https://x.test/">',
  '<svg><p>',
  '<math><mi>',
  '<table><td>',
  '<select><option>',
  '<noscript>',
  '<template><b>',
  '<xmp><b>',
  '<textarea>',
  '<title>',
  '<plaintext>',
  '<frameset>',
  '<body onload=x>',
  '<html>',
  '<head>',
  '<li>',
  '<dt>',
  '<dd>',
  '<tr>',
  '<col>',
  '<colgroup>',
  '<img>',
  '<br/>',
  '<hr>',
  '<wbr>',
  '<image src=x>',
  '\u2028',
  '\ufeff',
];

function* spliced(next: () => number, sources: readonly string[], count: number): Generator<string> {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  for (let i = 0; i < count; i++) {
    let body = '';
    const parts = 1 + Math.floor(next() * 6);
    for (let p = 0; p < parts; p++) {
      if (next() < 0.5) {
        body += pick(FRAGMENTS);
      } else {
        const source = pick(sources);
        const start = Math.floor(next() * source.length);
        body += source.slice(start, start + 1 + Math.floor(next() * 80));
      }
    }
    yield body;
  }
}

describe('the streaming filter against the sanitize-html reference', () => {
  const filtered = payloads.map((p) => referenceFilterHtml(p.payload).html);

  test('every corpus payload gives the same html and warnings', () => {
    assertSame(payloads.map((p) => p.payload));
  });

  test('every filtered corpus payload gives the same html and warnings', () => {
    assertSame(filtered);
  });

  test('generated markup gives the same html and warnings', () => {
    const next = random(20261123);
    assertSame(Array.from({ length: 10_000 }, () => generateBody(next)));
  });

  test('markup cut and spliced from the corpus and generated bodies gives the same html and warnings', () => {
    const next = random(4242);
    const sources = [...payloads.map((p) => p.payload), ...Array.from({ length: 200 }, () => generateBody(next))];
    assertSame(spliced(next, sources, 10_000));
  });

  test('articles, as written and with line breaks the filter rewrites, give the same html', () => {
    const articles = [1, 2, 3].map((salt) => articleHtml(5120, salt));
    assert.equal(assertSame([...articles, ...articles.map((a) => a.replaceAll('</p>', '<br></p>'))]), 6);
    const rewritten = sanitizePostHtml(articles[0].replaceAll('</p>', '<br></p>'));
    assert.deepEqual(rewritten, { html: articles[0].replaceAll('</p>', '<br /></p>'), warnings: [] });
  });

  test('nesting at and past the limit is treated the same', () => {
    assertSame([
      `${'<b>'.repeat(MAX_NESTING_DEPTH)}x`,
      `${'<b>'.repeat(MAX_NESTING_DEPTH + 1)}x`,
      `<svg>${'<g>'.repeat(MAX_NESTING_DEPTH)}</svg>`,
    ]);
    assert.throws(() => sanitizePostHtml(`<svg>${'<g>'.repeat(MAX_NESTING_DEPTH)}</svg>`), PostHtmlNestingError);
  });
});
