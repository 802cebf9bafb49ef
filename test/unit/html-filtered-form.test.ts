// The recognition of bodies already in the filter's output form must never accept a body the
// sanitizer would change: whatever it accepts, the sanitizer returns unchanged and without
// warnings. Checked on the XSS corpus, its filtered output and generated markup.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { filterPostHtml, sanitizePostHtml } from '../../src/modules/posts/html-filter.js';
import { isInFilteredForm } from '../../src/modules/posts/html-filtered-form.js';
import { MAX_NESTING_DEPTH } from '../../src/modules/posts/html-allow-list.js';

const payloads: Array<{ payload: string }> = JSON.parse(readFileSync(new URL('../fixtures/xss/payloads.json', import.meta.url), 'utf8'));

/** Checks the property on one body; returns whether the body was accepted. */
function agreesWithSanitizer(body: string, label: string): boolean {
  if (!isInFilteredForm(body)) return false;
  assert.deepEqual(sanitizePostHtml(body), { html: body, warnings: [] }, `${label} was accepted but the sanitizer changes it: ${JSON.stringify(body)}`);
  return true;
}

/** A small deterministic PRNG (mulberry32), so a failure names a case that can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TAGS = [
  'p', 'p', 'p', 'strong', 'em', 'a', 'a', 'ul', 'ol', 'li', 'li', 'h2', 'h3', 'blockquote', 'pre', 'code', 'div', 'span',
  'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'q', 'abbr', 'time',
  'br', 'hr', 'img', 'col', 'colgroup', 'caption', 'section', 'header',
  // Not allowed, or not the way the filter writes them.
  'script', 'style', 'font', 'svg', 'iframe', 'textarea', 'title', 'P', 'Em', 'wbr', 'input', 'xmp', 'noscript',
];
const ATTRIBUTES = ['href', 'src', 'cite', 'title', 'alt', 'class', 'target', 'rel', 'width', 'start', 'reversed', 'colspan', 'scope', 'span', 'datetime', 'loading', 'style', 'onclick', 'id', 'HREF', 'data-x'];
const VALUES = [
  'https://example.com/a?b=1&amp;c=2', 'http://x.test/', '/media/s/1.png', 'relative/path', '#top', '?q=1', '',
  ' ', 'x', 'Title with \'quotes\'', 'javascript:alert(1)', 'JavaScript:alert(1)', 'java\tscript:x', 'jav&#x09;ascript:x',
  'jav&amp;#x09;ascript:x', '\u200bjavascript:x', 'data:image/png;base64,AAAA', 'vbscript:x', '//cdn.example.com/x.png',
  '\\\\evil', 'mailto:a@b.test', 'tel:+123', 'ftp://x', 'language-js', 'language-js extra', 'hljs', '_blank', '_self',
  'noopener noreferrer', '3', 'a&b', 'a&amp;b', 'a&lt;b', '&quot;', 'x>y', 'https://x.test/?a=1&b=2', 'https://x.test/ y',
];
const TEXTS = [
  'hello world', 'a &amp; b', '&lt;script&gt;', '&nbsp;', 'x > y', 'a & b', '\n', '\t', '\r\n', 'é ü 漢字', '\u200b', '&copy;',
  '&#169;', '\u0000', '\u0085', '\ud83d\ude00', '\ud800', '\f', '\u2028', 'it\'s "quoted"', ' ', '&amp;copy;', '&ampx', '&AMP;', '<', '<!-- c -->', '<!DOCTYPE html>', '<?x?>',
];

function generate(next: () => number, depth: number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  let out = '';
  const parts = 1 + Math.floor(next() * 4);
  for (let i = 0; i < parts; i++) {
    if (depth > 3 || next() < 0.4) {
      out += pick(TEXTS);
      continue;
    }
    const tag = pick(TAGS);
    let attrs = '';
    const count = next() < 0.5 ? 0 : 1 + Math.floor(next() * 2);
    for (let a = 0; a < count; a++) {
      const name = next() < 0.7 ? pick(['href', 'src', 'title', 'alt', 'class', 'target']) : pick(ATTRIBUTES);
      const style = next();
      attrs += style < 0.85 ? ` ${name}="${pick(VALUES)}"` : style < 0.92 ? ` ${name}='${pick(VALUES)}'` : ` ${name}`;
    }
    const isVoid = ['br', 'hr', 'img', 'col', 'wbr', 'input'].includes(tag);
    if (isVoid) {
      out += next() < 0.8 ? `<${tag}${attrs} />` : `<${tag}${attrs}>`;
      continue;
    }
    out += `<${tag}${attrs}${next() < 0.03 ? ' ' : ''}>${generate(next, depth + 1)}`;
    const close = next();
    if (close < 0.9) out += `</${tag}>`;
    else if (close < 0.95) out += `</${tag.toUpperCase()}>`;
  }
  return out;
}

describe('recognising bodies already in the filter output form', () => {
  test('every corpus payload, and its filtered output, is either refused or left unchanged by the sanitizer', () => {
    let accepted = 0;
    payloads.forEach(({ payload }, i) => {
      if (agreesWithSanitizer(payload, `payload ${i}`)) accepted++;
      if (agreesWithSanitizer(sanitizePostHtml(payload).html, `filtered payload ${i}`)) accepted++;
    });
    // Many filtered outputs are in the form, so the property is exercised, not vacuous.
    assert.ok(accepted >= 100, `only ${accepted} corpus bodies were recognised`);
  });

  test('generated markup is either refused or left unchanged by the sanitizer', () => {
    const next = random(20261122);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 30_000; i++) {
      const body = generate(next, 0);
      if (agreesWithSanitizer(body, `generated case ${i}`)) accepted++;
      else refused++;
      // The sanitizer's output of anything generated is in the form unless it needs a rewrite
      // the check does not model; either way the property must hold for it too.
      if (i % 10 === 0 && agreesWithSanitizer(sanitizePostHtml(body).html, `output of generated case ${i}`)) accepted++;
    }
    assert.ok(accepted >= 3_000 && refused >= 3_000, `accepted ${accepted}, refused ${refused}: the generator no longer covers both sides`);
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
      '<a href=\'/x\'>x</a>',
      '<p >x</p>',
    ];
    for (const body of rewritten) {
      assert.equal(isInFilteredForm(body), false, body);
      const filtered = filterPostHtml(body);
      assert.ok(filtered.html !== body || filtered.warnings.length > 0, `the filter leaves ${JSON.stringify(body)} as it is; the case proves nothing`);
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
