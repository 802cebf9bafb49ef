// The recognition of bodies already in the filter's output form must never accept a body the
// full filter would change: whatever it accepts, the full filter returns unchanged and without
// warnings. Checked on the XSS corpus, its filtered output and generated markup.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { filterPostHtml, sanitizePostHtml } from '../../src/modules/posts/html-filter.js';
import { isInFilteredForm } from '../../src/modules/posts/html-filtered-form.js';
import { MAX_NESTING_DEPTH } from '../../src/modules/posts/html-allow-list.js';
import { generateBody, random } from '../helpers/html-bodies.js';

const payloads: Array<{ payload: string }> = JSON.parse(
  readFileSync(new URL('../fixtures/xss/payloads.json', import.meta.url), 'utf8'),
);

/** Checks the property on one body; returns whether the body was accepted. */
function agreesWithFullFilter(body: string, label: string): boolean {
  if (!isInFilteredForm(body)) return false;
  assert.deepEqual(
    sanitizePostHtml(body),
    { html: body, warnings: [] },
    `${label} was accepted but the full filter changes it: ${JSON.stringify(body)}`,
  );
  return true;
}

describe('recognising bodies already in the filter output form', () => {
  test('every corpus payload, and its filtered output, is either refused or left unchanged by the full filter', () => {
    let accepted = 0;
    payloads.forEach(({ payload }, i) => {
      if (agreesWithFullFilter(payload, `payload ${i}`)) accepted++;
      if (agreesWithFullFilter(sanitizePostHtml(payload).html, `filtered payload ${i}`)) accepted++;
    });
    // Many filtered outputs are in the form, so the property is exercised, not vacuous.
    assert.ok(accepted >= 100, `only ${accepted} corpus bodies were recognised`);
  });

  test('generated markup is either refused or left unchanged by the full filter', () => {
    const next = random(20261122);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 30_000; i++) {
      const body = generateBody(next);
      if (agreesWithFullFilter(body, `generated case ${i}`)) accepted++;
      else refused++;
      // The full filter's output of anything generated is in the form unless it needs a rewrite
      // the check does not model; either way the property must hold for it too.
      if (i % 10 === 0 && agreesWithFullFilter(sanitizePostHtml(body).html, `output of generated case ${i}`))
        accepted++;
    }
    assert.ok(
      accepted >= 3_000 && refused >= 3_000,
      `accepted ${accepted}, refused ${refused}: the generator no longer covers both sides`,
    );
  });

  test('ordinary article markup is recognised and returned by the filter as it is', () => {
    const article = [
      '<h2>Spring collection</h2>',
      '<p>Our <strong>new</strong> range is <em>here</em> &amp; ready. See <a href="https://shop.example.com/new?utm=blog&amp;x=1" title="New in">the shop</a>.</p>',
      '<ul><li>Linen</li><li>Cotton</li></ul>',
      '<figure><img src="/media/s1/abc.jpg" alt="" width="640" /><figcaption>Our studio</figcaption></figure>',
      '<pre class="language-ts"><code class="language-ts">const x = 1 &lt; 2;</code></pre>',
      '<table><thead><tr><th scope="col">Size</th></tr></thead><tbody><tr><td>M</td></tr></tbody></table>',
      '<p>Line one<br />line two</p>\n<hr />\n<blockquote cite="https://example.com/q"><p>Quote</p></blockquote>',
    ].join('\n');
    assert.equal(isInFilteredForm(article), true);
    assert.deepEqual(sanitizePostHtml(article), { html: article, warnings: [] });
    assert.deepEqual(filterPostHtml(article), { html: article, warnings: [] });
  });

  test('markup the filter rewrites or removes is refused, and the filter still rewrites it', () => {
    const rewritten = [
      '<p>a<br>b</p>', // void element not written as the sanitizer writes it
      '<P>x</P>',
      '<p>a&nbsp;b</p>', // entity decoded on output
      '<p>x > y</p>',
      '<p>a & b</p>',
      '<p>a<div>b</div></p>', // the parser closes the p first
      '<ul><li>a<li>b</li></ul>',
      '<p>unclosed',
      '<p title="x">t</p>', // attribute not allowed on p
      '<a href="javascript:alert(1)">x</a>',
      '<a href="jav&#x09;ascript:alert(1)">x</a>',
      '<a href="\u200bjavascript:alert(1)">x</a>',
      '<img src="data:image/png;base64,AAAA" />',
      '<code class="hljs">x</code>',
      '<a href="/x" target="_blank">x</a>',
      '<a title="">x</a>',
      '<p>a<!-- comment -->b</p>',
      '<script>alert(1)</script>',
      '<p onclick="x()">x</p>',
      "<a href='/x'>x</a>",
      '<p >x</p>',
    ];
    for (const body of rewritten) {
      assert.equal(isInFilteredForm(body), false, body);
      const filtered = filterPostHtml(body);
      assert.ok(
        filtered.html !== body || filtered.warnings.length > 0,
        `the filter leaves ${JSON.stringify(body)} as it is; the case proves nothing`,
      );
    }
  });

  test('nesting deeper than the limit is left to the filter, which refuses it', () => {
    const atLimit = `${'<div>'.repeat(MAX_NESTING_DEPTH)}x${'</div>'.repeat(MAX_NESTING_DEPTH)}`;
    const tooDeep = `<div>${atLimit}</div>`;
    assert.equal(isInFilteredForm(atLimit), true);
    assert.equal(isInFilteredForm(tooDeep), false);
    assert.throws(() => filterPostHtml(tooDeep), { name: 'PostHtmlNestingError' });
  });
});
