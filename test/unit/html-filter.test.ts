import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseFragment, serialize } from 'parse5';
import { filterPostHtml, MAX_NESTING_DEPTH, PostHtmlNestingError } from '../../src/modules/posts/html-filter.js';
import { violations, WARNING_FORMATS } from '../helpers/html-safety.js';
import { withCpuTime } from '../helpers/cpu-time.js';

interface Payload {
  source: string;
  index: number;
  title: string;
  payload: string;
}

const payloads: Payload[] = JSON.parse(readFileSync(new URL('../fixtures/xss/payloads.json', import.meta.url), 'utf8'));

function label(p: Payload): string {
  return `${p.source} #${p.index} "${p.title}"`;
}

/** Runs `check` on every payload and fails once, listing every failing payload. */
function assertForEveryPayload(check: (p: Payload) => string[]): void {
  const failures: string[] = [];
  for (const p of payloads) {
    const problems = check(p);
    if (problems.length > 0) failures.push(`${label(p)}: ${problems.join('; ')}`);
  }
  assert.deepEqual(failures, [], `${failures.length} of ${payloads.length} payloads failed:\n${failures.join('\n')}`);
}

describe('filterPostHtml on the XSS corpus', () => {
  test('the corpus is complete', () => {
    assert.equal(payloads.length, 372);
    for (const p of payloads) assert.equal(typeof p.payload, 'string', label(p));
  });

  test('every output contains only allow-listed markup with safe URLs', () => {
    assertForEveryPayload((p) => violations(filterPostHtml(p.payload).html));
  });

  test('filtering every output again changes nothing and warns about nothing', () => {
    assertForEveryPayload((p) => {
      const first = filterPostHtml(p.payload);
      const second = filterPostHtml(first.html);
      const problems: string[] = [];
      if (second.html !== first.html)
        problems.push(`second pass changed ${JSON.stringify(first.html)} to ${JSON.stringify(second.html)}`);
      if (second.warnings.length > 0) problems.push(`second pass warned ${JSON.stringify(second.warnings)}`);
      return problems;
    });
  });

  test('warnings are unique and use the documented formats', () => {
    assertForEveryPayload((p) => {
      const { warnings } = filterPostHtml(p.payload);
      const problems = warnings
        .filter((w) => !WARNING_FORMATS.some((format) => format.test(w)))
        .map((w) => `unexpected warning ${JSON.stringify(w)}`);
      if (new Set(warnings).size !== warnings.length) problems.push(`duplicate warnings ${JSON.stringify(warnings)}`);
      return problems;
    });
  });

  test('hostile payloads do produce warnings', () => {
    const silent = payloads
      .filter((p) => /<script|onerror=|javascript:/i.test(p.payload))
      .filter((p) => filterPostHtml(p.payload).warnings.length === 0);
    // Only payloads whose "script" sits in text or an allowed value may pass silently.
    for (const p of silent) {
      assert.deepEqual(violations(filterPostHtml(p.payload).html), [], label(p));
    }
    assert.ok(silent.length < payloads.length / 10, `${silent.length} hostile payloads produced no warning`);
  });
});

// Written in the filter's canonical serialisation (double-quoted attributes,
// `<br />`, `&amp;`) so that it must survive byte for byte.
const CANONICAL_ARTICLE = [
  '<h2>Spring collection is here</h2>',
  '<p>Our <strong>new linen shirts</strong> arrived. Read the <a href="https://example.com/care" title="Care guide">care guide</a> or <a href="/blog/linen-101" target="_blank" rel="noopener noreferrer">our primer</a>.</p>',
  '<figure><img src="/media/acme-store/shirt-blue.jpg" alt="Blue linen shirt" title="Harbour" width="800" height="600" loading="lazy" />',
  '<figcaption>The <em>Harbour</em> shirt, <i>blue</i>.</figcaption></figure>',
  '<p><img src="https://cdn.example.com/a.png" alt="" /></p>',
  '<h3>Why linen?</h3>',
  '<ul><li>Breathable</li><li>Gets <b>softer</b> with every wash</li></ul>',
  '<ol start="3" reversed type="a"><li>Third</li><li>Second</li></ol>',
  '<blockquote cite="https://example.com/review"><p>Best shirt I have owned.</p></blockquote>',
  '<p>Use code <code>SPRING10</code> &amp; save 10% &lt;today&gt;. Press <kbd>Ctrl</kbd>+<kbd>C</kbd>.<br />Ends <time datetime="2025-04-30">30 April</time>.</p>',
  '<pre><code class="language-json">{"sku": "LIN-001", "price": 49}\n</code></pre>',
  '<table><caption>Sizes</caption><colgroup><col span="2" /></colgroup>',
  '<thead><tr><th scope="col">Size</th><th scope="col" colspan="1">Chest</th></tr></thead>',
  '<tbody><tr><td>M</td><td rowspan="1">100</td></tr></tbody>',
  '<tfoot><tr><td colspan="2">More sizes soon</td></tr></tfoot></table>',
  '<hr />',
  '<p><small>Prices include <abbr title="Value added tax">VAT</abbr>.</small> <a href="mailto:shop@example.com">Email</a> or <a href="tel:+15551234567">call</a>. ',
  'H<sub>2</sub>O, x<sup>2</sup>, <mark>new</mark>, <del>old</del> <ins>new</ins>, <s>gone</s>, <u>u</u>, ',
  '<q cite="https://example.com/q">quoted</q>, <cite>Source</cite>, <samp>out</samp>, <span>plain</span>. Ünïcödé “quotes” — ok.</p>',
  '<dl><dt>Fabric</dt><dd>100% linen</dd></dl>',
  '<section><header><h4>Notes</h4></header><article><h5>A</h5><p>a</p></article><aside><h6>B</h6></aside><footer><h1>C</h1></footer></section>',
  '<div><p>Last paragraph.</p></div>',
].join('\n');

// The same kind of content as a browser-based editor might send it.
const EDITOR_ARTICLE = `<h2>Care</h2>
<p>Wash at 30&deg;C &amp; dry <EM>flat</EM>.<br>
<img src=/media/acme/care.png alt='Care label' width=400>
<a href="https://example.com/faq#care" target=_blank>FAQ</a></p>
<ul><li>One<li>Two</ul>
<table><tr><th>Size<td>M</table>`;

function normalisedTree(html: string): string {
  return serialize(parseFragment(html));
}

describe('filterPostHtml on ordinary articles', () => {
  test('canonical article markup survives byte for byte without warnings', () => {
    assert.deepEqual(filterPostHtml(CANONICAL_ARTICLE), { html: CANONICAL_ARTICLE, warnings: [] });
  });

  test('editor-style markup survives semantically without warnings', () => {
    const { html, warnings } = filterPostHtml(EDITOR_ARTICLE);
    assert.deepEqual(warnings, []);
    // The only intended difference: rel is completed for target="_blank".
    const expected = EDITOR_ARTICLE.replace('target=_blank>', 'target=_blank rel="noopener noreferrer">');
    assert.equal(normalisedTree(html), normalisedTree(expected));
  });

  test('relative and absolute image and link URLs are kept', () => {
    const input =
      '<a href="/blog/post-2?x=1&amp;y=2#top">a</a><a href="post-3">b</a><a href="#s">c</a>' +
      '<img src="/media/store-1/photo.jpg" /><img src="https://cdn.example.com/p.jpg" /><img src="//cdn.example.com/q.jpg" />';
    assert.deepEqual(filterPostHtml(input), { html: input, warnings: [] });
  });
});

describe('filterPostHtml removals and warnings', () => {
  const cases: Array<{ name: string; input: string; html: string; warnings: string[] }> = [
    {
      name: 'script element and its text',
      input: '<p>Hi<script>alert(1)</script></p>',
      html: '<p>Hi</p>',
      warnings: ['removed element <script>'],
    },
    {
      name: 'onerror attribute',
      input: '<img src="/media/s/x.png" onerror="alert(1)">',
      html: '<img src="/media/s/x.png" />',
      warnings: ['removed attribute onerror from <img>'],
    },
    {
      name: 'javascript: href',
      input: '<a href="javascript:alert(1)">x</a>',
      html: '<a>x</a>',
      warnings: ['removed unsafe URL from href of <a>'],
    },
    {
      name: 'style attribute',
      input: '<p style="background:url(javascript:alert(1))">x</p>',
      html: '<p>x</p>',
      warnings: ['removed attribute style from <p>'],
    },
    {
      name: 'iframe with its fallback content',
      input: '<iframe src="https://evil.example/"><p>fallback</p></iframe><p>ok</p>',
      html: '<p>ok</p>',
      warnings: ['removed element <iframe>'],
    },
    {
      name: 'harmless wrapper keeps its text',
      input: '<font color="red">hi</font>',
      html: 'hi',
      warnings: ['removed element <font> (content kept)'],
    },
    {
      name: 'style element text is dropped',
      input: '<style>p { color: red }</style><p>x</p>',
      html: '<p>x</p>',
      warnings: ['removed element <style>'],
    },
    {
      name: 'svg and math with their text',
      input: '<svg><text>svg text</text></svg><math><mi>x</mi></math>',
      html: '',
      warnings: ['removed element <svg>', 'removed element <math>'],
    },
    {
      name: 'form controls',
      input: '<form action="/x"><input value="1"><button>Go</button></form>',
      html: 'Go',
      warnings: [
        'removed element <form> (content kept)',
        'removed element <input>',
        'removed element <button> (content kept)',
      ],
    },
    {
      name: 'obfuscated and non-web schemes',
      input:
        '<a href="jav&#x09;ascript:alert(1)">a</a><a href=" vbscript:x">b</a><img src="data:image/png;base64,AAAA"><img src="mailto:a@example.com">',
      html: '<a>a</a><a>b</a><img /><img />',
      warnings: ['removed unsafe URL from href of <a>', 'removed unsafe URL from src of <img>'],
    },
    {
      name: 'srcset and unsafe cite',
      input: '<img src="/a.png" srcset="/a2.png 2x"><blockquote cite="javascript:x">q</blockquote>',
      html: '<img src="/a.png" /><blockquote>q</blockquote>',
      warnings: ['removed attribute srcset from <img>', 'removed unsafe URL from cite of <blockquote>'],
    },
    {
      name: 'target other than _blank',
      input: '<a href="https://example.com" target="_top">x</a>',
      html: '<a href="https://example.com">x</a>',
      warnings: ['removed disallowed value of target from <a>'],
    },
    {
      name: 'class names other than language-*',
      input: '<pre><code class="language-ts evil">x</code></pre><span class="x">y</span>',
      html: '<pre><code class="language-ts">x</code></pre><span>y</span>',
      warnings: ['removed disallowed value of class from <code>', 'removed attribute class from <span>'],
    },
    {
      name: 'empty attributes',
      input: '<a title="">t</a><img src="" alt="">',
      html: '<a>t</a><img alt="" />',
      warnings: ['removed empty attribute title from <a>', 'removed empty attribute src from <img>'],
    },
    {
      name: 'duplicates reported once, in order of first occurrence',
      input: '<img onerror="a"><b onclick="x">1</b><img onerror="b"><script>x</script><b onclick="y">2</b>',
      html: '<img /><b>1</b><img /><b>2</b>',
      warnings: [
        'removed attribute onerror from <img>',
        'removed attribute onclick from <b>',
        'removed element <script>',
      ],
    },
    {
      name: 'elements inside dropped content are not reported separately',
      input: '<noscript><p onclick="x"><font>t</font></p></noscript><p>ok</p>',
      html: '<p>ok</p>',
      warnings: ['removed element <noscript>'],
    },
    {
      name: 'text of raw-text and inert elements is dropped',
      input: '<title>Doc</title><textarea>t</textarea><xmp><b>x</b></xmp><template><p>t</p></template><p>ok</p>',
      html: '<p>ok</p>',
      warnings: [
        'removed element <title>',
        'removed element <textarea>',
        'removed element <xmp>',
        'removed element <template>',
      ],
    },
    {
      name: 'scheme disguised with Unicode separators or zero-width characters',
      input:
        '<a href="\u2028javascript:alert(1)">a</a><img src="java\u200bscript:alert(1)"><a href="https://example.com/\u00a0x">ok</a>',
      html: '<a>a</a><img /><a href="https://example.com/\u00a0x">ok</a>',
      warnings: ['removed unsafe URL from href of <a>', 'removed unsafe URL from src of <img>'],
    },
    {
      name: 'long names are shortened in warnings',
      input: `<p data-${'x'.repeat(100)}="1">t</p>`,
      html: '<p>t</p>',
      warnings: [`removed attribute data-${'x'.repeat(59)}… from <p>`],
    },
    {
      name: 'comments are removed silently',
      input: '<!-- draft note --><p>a<!--[if IE]><script>x</script><![endif]--></p>',
      html: '<p>a</p>',
      warnings: [],
    },
  ];

  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(filterPostHtml(c.input), { html: c.html, warnings: c.warnings });
    });
  }

  test('target="_blank" gets rel="noopener noreferrer" added to existing rel', () => {
    assert.deepEqual(filterPostHtml('<a href="https://x.example" target="_blank" rel="nofollow">x</a>'), {
      html: '<a href="https://x.example" target="_blank" rel="nofollow noopener noreferrer">x</a>',
      warnings: [],
    });
  });

  test('unwrapping that changes the parse is settled in one call', () => {
    const first = filterPostHtml('<p><font><div>x</div></font></p>');
    assert.deepEqual(first.warnings, ['removed element <font> (content kept)']);
    assert.deepEqual(filterPostHtml(first.html), { html: first.html, warnings: [] });
  });
});

describe('filterPostHtml limits', () => {
  test(`nesting up to ${MAX_NESTING_DEPTH} levels is accepted`, () => {
    const input = '<div>'.repeat(MAX_NESTING_DEPTH) + 'x';
    const { html, warnings } = filterPostHtml(input);
    assert.equal(html, input + '</div>'.repeat(MAX_NESTING_DEPTH));
    assert.deepEqual(warnings, []);
  });

  test('deeper nesting is rejected quickly instead of stalling the parser', async () => {
    const { cpuMs } = await withCpuTime(() =>
      assert.throws(() => filterPostHtml('<b>'.repeat(300_000)), PostHtmlNestingError),
    );
    assert.ok(cpuMs < 1000, `took ${cpuMs.toFixed(0)} ms of CPU`);
  });

  test('a 1 MiB article is filtered in well under the request budget', async () => {
    const unit = CANONICAL_ARTICLE + '\n';
    const body = unit.repeat(Math.ceil((1024 * 1024) / unit.length));
    const { result, cpuMs } = await withCpuTime(() => filterPostHtml(body));
    const { html, warnings } = result;
    assert.equal(html, body);
    assert.deepEqual(warnings, []);
    // Generous bound (about 0.3 s on a laptop), in CPU time so other load on the machine does not count.
    assert.ok(cpuMs < 5000, `took ${cpuMs.toFixed(0)} ms of CPU`);
  });
});
