// What readers and crawlers get besides the pages: Atom, RSS and JSON feeds (parsed and checked
// for their formats' required elements), category pages, sitemaps (and the index above the
// per-file limit), robots.txt, the rich-preview tags and JSON-LD of post pages, and HTTP caching
// of all of them.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser } from 'htmlparser2';
import { START_TIME } from '../helpers/test-app.js';
import { createPost, publish } from '../helpers/posts.js';
import { htmlProblems } from '../helpers/html-validation.js';
import { secondInstance } from '../helpers/second-instance.js';
import { randomLowerAlnum } from '../../src/lib/crypto.js';
import type { Store } from '../../src/modules/stores/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=30';
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name, jpath) =>
    ['entry', 'item', 'url', 'sitemap', 'category'].includes(name) ||
    ['feed.link', 'feed.entry.link'].includes(String(jpath)),
});

/** The <meta>, <link> and <script> elements of a page, read by a real HTML parser. */
function headOf(html: string) {
  const metas = new Map<string, string>();
  const links: Array<Record<string, string>> = [];
  const scripts: Array<{ attribs: Record<string, string>; text: string }> = [];
  let current: { attribs: Record<string, string>; text: string } | null = null;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (name === 'meta' && attribs.content !== undefined)
        metas.set(attribs.property ?? attribs.name, attribs.content);
      if (name === 'link') links.push(attribs);
      if (name === 'script') scripts.push((current = { attribs, text: '' }));
    },
    ontext(text) {
      if (current) current.text += text;
    },
    onclosetag(name) {
      if (name === 'script') current = null;
    },
  });
  parser.write(html);
  parser.end();
  return { metas, links, scripts };
}

describeTenantApp('feeds, sitemaps, category pages and rich previews', (suite) => {
  const get = (url: string, headers: Record<string, string> = {}) => suite.t.request({ method: 'GET', url, headers });
  const shop = async (name?: string) => {
    const tenant = await suite.t.tenant();
    if (name) await suite.t.ctx.stores.update(tenant.store.handle, { name });
    return { ...tenant, key: name ? await suite.t.issueKey(tenant.store) : tenant.key };
  };
  const published = async (key: string, body: Record<string, unknown> = {}, at?: string) => {
    const post = await createPost(suite.t, key, body);
    assert.equal((await publish(suite.t, key, post.id, at)).statusCode, 200);
    return post as { id: number; title: string };
  };
  const category = async (key: string, name: string) => {
    const res = await suite.t.request({
      method: 'POST',
      url: '/v1/blog/categories',
      key,
      headers: { 'idempotency-key': `cat-${randomLowerAlnum(12)}` },
      body: { name },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().id as number;
  };
  const insertImage = async (s: Store) => {
    const basename = `${randomLowerAlnum(24)}.jpg`;
    await suite.t.ctx.db
      .insertInto('images')
      .values({
        id: `img_${randomLowerAlnum(24)}`,
        store_id: s.id,
        basename,
        sha256: randomLowerAlnum(64),
        content_type: 'image/jpeg',
        width: 1200,
        height: 630,
        bytes: 1234,
        created_at: Date.parse(START_TIME),
        deleted_at: null,
      })
      .execute();
    return `http://blog.test/media/${s.handle}/${basename}`;
  };
  const feeds = async (handle: string) => {
    const atom = await get(`/s/${handle}/blog/feed.xml`);
    const rss = await get(`/s/${handle}/blog/rss.xml`);
    const json = await get(`/s/${handle}/blog/feed.json`);
    for (const res of [atom, rss, json]) assert.equal(res.statusCode, 200, res.body);
    assert.equal(XMLValidator.validate(atom.body), true, 'well-formed Atom');
    assert.equal(XMLValidator.validate(rss.body), true, 'well-formed RSS');
    return {
      atom,
      rss,
      json,
      parsed: { atom: xml.parse(atom.body).feed, rss: xml.parse(rss.body).rss, json: json.json() },
    };
  };
  /** Titles in each feed, in order. */
  const titlesOf = async (handle: string) => {
    const { parsed } = await feeds(handle);
    const text = (t: unknown) =>
      typeof t === 'object' && t !== null ? (t as { '#text': string })['#text'] : String(t);
    return {
      atom: (parsed.atom.entry ?? []).map((e: { title: unknown }) => text(e.title)),
      rss: (parsed.rss.channel.item ?? []).map((i: { title: unknown }) => String(i.title)),
      json: parsed.json.items.map((i: { title: string }) => i.title),
    };
  };
  const assertCached = (res: LightMyRequestResponse) => {
    assert.equal(res.headers['cache-control'], CACHE_CONTROL);
    assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]{27}"$/);
    assert.match(String(res.headers['last-modified']), /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
  };
  const assertRevalidates = async (url: string) => {
    const first = await get(url);
    assertCached(first);
    const again = await get(url, { 'if-none-match': String(first.headers.etag) });
    assert.equal(again.statusCode, 304, url);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal(again.headers['cache-control'], CACHE_CONTROL);
    assert.equal((await get(url, { 'if-none-match': '"other"' })).statusCode, 200);
  };

  it('Atom, RSS and JSON Feed: the 20 newest published posts with their full filtered HTML, absolute URLs, categories, the formats’ required elements', async () => {
    const { store, key } = await shop('Tea & "Co"');
    const base = `http://blog.test/s/${store.handle}`;
    const news = await category(key, 'News & Notes');
    const cover = await insertImage(store);
    const first = await published(
      key,
      {
        title: 'First <post>',
        summary: 'A summary',
        body_html: '<p>Hello <a href="https://example.com/x" onclick="x()">link</a></p><script>alert(1)</script>',
        category_ids: [news],
        cover_image_url: cover,
      },
      '2026-08-01T00:00:00Z',
    );
    for (let i = 2; i <= 21; i++)
      await published(key, { title: `Post ${i}` }, `2026-08-${String(i).padStart(2, '0')}T00:00:00Z`);
    await createPost(suite.t, key, { title: 'A draft' });

    const { atom, rss, json, parsed } = await feeds(store.handle);
    assert.equal(atom.headers['content-type'], 'application/atom+xml; charset=utf-8');
    assert.equal(rss.headers['content-type'], 'application/rss+xml; charset=utf-8');
    assert.equal(json.headers['content-type'], 'application/feed+json; charset=utf-8');

    // Atom (RFC 4287): feed id, title, updated, author; each entry id, title, updated, content, alternate link.
    const feed = parsed.atom;
    assert.equal(feed['@xmlns'], 'http://www.w3.org/2005/Atom');
    assert.equal(feed.id, `${base}/blog`);
    assert.equal(feed.title['#text'], 'Tea & "Co"');
    assert.equal(feed.author.name, 'Tea & "Co"');
    assert.ok(!Number.isNaN(Date.parse(feed.updated)));
    assert.deepEqual(
      feed.link.map((l: Record<string, string>) => [l['@rel'], l['@href']]),
      [
        ['self', `${base}/blog/feed.xml`],
        ['alternate', `${base}/blog`],
      ],
    );
    assert.equal(feed.entry.length, 20, 'the 20 newest');
    assert.equal(feed.entry[0].title['#text'], 'Post 21', 'newest first');
    for (const e of feed.entry) {
      assert.match(e.id, /^http:\/\/blog\.test\/s\/[a-z0-9-]+\/blog\/posts\/\d+$/);
      assert.equal(e.link[0]['@href'], e.id);
      assert.ok(e.title['#text'] && e.updated && e.published && e.content['#text'] !== undefined);
      assert.equal(e.content['@type'], 'html');
    }
    assert.ok(
      !feed.entry.some((e: { title: { '#text': string } }) => e.title['#text'] === 'First <post>'),
      'the 21st is not in it',
    );

    // RSS 2.0: channel title, link, description; each item title, link, guid, pubDate, description.
    const channel = parsed.rss.channel;
    assert.equal(parsed.rss['@version'], '2.0');
    assert.equal(channel.title, 'Tea & "Co"');
    assert.equal(channel.link, `${base}/blog`);
    assert.ok(channel.description);
    assert.equal(channel.item.length, 20);
    for (const item of channel.item) {
      assert.ok(item.title && item.description);
      assert.equal(item.guid['#text'], item.link);
      assert.equal(item.guid['@isPermaLink'], 'true');
      assert.match(item.pubDate, /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
    }

    // JSON Feed 1.1: version, title, items; each item id and content_html.
    const jf = parsed.json;
    assert.equal(jf.version, 'https://jsonfeed.org/version/1.1');
    assert.equal(jf.title, 'Tea & "Co"');
    assert.equal(jf.home_page_url, `${base}/blog`);
    assert.equal(jf.feed_url, `${base}/blog/feed.json`);
    assert.equal(jf.items.length, 20);
    for (const item of jf.items) {
      assert.equal(typeof item.id, 'string');
      assert.equal(typeof item.content_html, 'string');
      assert.equal(item.url, item.id);
      assert.ok(!Number.isNaN(Date.parse(item.date_published)));
    }

    // The oldest post leaves when the newest is unpublished; its body, category and cover show.
    const newest = jf.items[0].id.split('/').pop();
    await suite.t.request({ method: 'POST', url: `/v1/blog/posts/${newest}/unpublish`, key });
    const after = await feeds(store.handle);
    const entry = after.parsed.atom.entry.find(
      (e: { title: { '#text': string } }) => e.title['#text'] === 'First <post>',
    );
    const body = '<p>Hello <a href="https://example.com/x">link</a></p>';
    assert.equal(entry.content['#text'], body, 'the stored, filtered body, as HTML in an escaped text');
    assert.ok(after.atom.body.includes('<title type="text">First &lt;post&gt;</title>'));
    assert.deepEqual([entry.category[0]['@term'], entry.category[0]['@label']], [String(news), 'News & Notes']);
    assert.equal(entry.summary['#text'], 'A summary');
    const item = after.parsed.rss.channel.item.find((i: { title: string }) => i.title === 'First <post>');
    assert.equal(item.description, body);
    assert.deepEqual(item.category, [{ '#text': 'News & Notes', '@domain': `${base}/blog/categories/${news}` }]);
    const jsonItem = after.parsed.json.items.find((i: { title: string }) => i.title === 'First <post>');
    assert.equal(jsonItem.content_html, body);
    assert.deepEqual(jsonItem.tags, ['News & Notes']);
    assert.equal(jsonItem.image, cover);
    assert.equal(jsonItem.id, `${base}/blog/posts/${first.id}`);
    for (const titles of Object.values(await titlesOf(store.handle))) {
      assert.ok(!titles.includes('Post 21'), 'unpublished: gone from every feed');
      assert.ok(!titles.includes('A draft'));
    }
  });

  it('drafts and scheduled posts never appear; a scheduled post appears when the clock passes its time; a title change shows on the next request', async () => {
    const { store, key } = await shop();
    const live = await published(key, { title: 'Live' });
    await createPost(suite.t, key, { title: 'Draft' });
    const later = await createPost(suite.t, key, { title: 'Scheduled' });
    assert.equal((await publish(suite.t, key, later.id, '2026-09-15T03:00:00Z')).statusCode, 200);
    const atomUrl = `/s/${store.handle}/blog/feed.xml`;
    const before = await get(atomUrl);
    try {
      for (const titles of Object.values(await titlesOf(store.handle))) assert.deepEqual(titles, ['Live']);
      suite.t.clock.set('2026-09-15T02:59:59.999Z');
      for (const titles of Object.values(await titlesOf(store.handle))) assert.deepEqual(titles, ['Live']);
      suite.t.clock.set('2026-09-15T03:00:00Z');
      for (const titles of Object.values(await titlesOf(store.handle))) assert.deepEqual(titles, ['Scheduled', 'Live']);
      const due = await get(atomUrl, { 'if-none-match': String(before.headers.etag) });
      assert.equal(due.statusCode, 200, 'the copy from before is stale');

      const res = await suite.t.request({
        method: 'PATCH',
        url: `/v1/blog/posts/${live.id}`,
        key,
        body: { title: 'Live, renamed' },
      });
      assert.equal(res.statusCode, 200, res.body);
      for (const titles of Object.values(await titlesOf(store.handle)))
        assert.deepEqual(titles, ['Scheduled', 'Live, renamed']);
      assert.ok((await get(`/s/${store.handle}/blog/posts/${live.id}`)).body.includes('<h1>Live, renamed</h1>'));
      assert.ok((await get(`/s/${store.handle}/sitemap.xml`)).body.includes(`/blog/posts/${later.id}</loc>`));
    } finally {
      suite.t.clock.set(START_TIME);
    }
    for (const feed of ['feed.xml', 'rss.xml', 'feed.json']) {
      assert.equal((await get(`/s/no-such-store/blog/${feed}`)).statusCode, 404);
      await assertRevalidates(`/s/${store.handle}/blog/${feed}`);
    }
  });

  it('category pages: the category’s published posts, paged like the index, linked from post pages; other stores’ categories are 404', async () => {
    const { store, key } = await shop();
    const tea = await category(key, 'Tea');
    const other = await category(key, 'Other');
    const ids: number[] = [];
    for (let i = 1; i <= 21; i++)
      ids.push(
        (
          await published(
            key,
            { title: `Tea ${i}`, category_ids: [tea] },
            `2026-09-01T00:${String(i).padStart(2, '0')}:00Z`,
          )
        ).id,
      );
    await published(key, { title: 'Elsewhere', category_ids: [other] });
    await createPost(suite.t, key, { title: 'Draft tea', category_ids: [tea] });
    const url = `/s/${store.handle}/blog/categories/${tea}`;
    const first = await get(url);
    assert.equal(first.statusCode, 200);
    assert.deepEqual(await htmlProblems(first.body), []);
    assert.ok(first.body.includes('<h1>Tea</h1>'));
    assert.ok(first.body.includes('<title>Tea | 部落格 | Test Store</title>'));
    const titles = (html: string) => [...html.matchAll(/<h2><a href="[^"]+">([^<]+)<\/a><\/h2>/g)].map((m) => m[1]);
    assert.deepEqual(
      titles(first.body),
      Array.from({ length: 20 }, (_, i) => `Tea ${21 - i}`),
    );
    const older = /<a href="http:\/\/blog\.test(\/s\/[^"]+)" rel="next">/
      .exec(first.body)?.[1]
      .replaceAll('&amp;', '&');
    assert.ok(older?.startsWith(`${url}?before=`));
    const second = await get(older ?? '');
    assert.deepEqual(titles(second.body), ['Tea 1']);
    assert.ok(second.body.includes(`<a href="http://blog.test${url}" rel="first">`));
    await assertRevalidates(url);

    const post = await get(`/s/${store.handle}/blog/posts/${ids[0]}`);
    assert.ok(post.body.includes(`<a href="http://blog.test${url}">Tea</a>`), 'linked from the post page');

    const stranger = await shop();
    const theirs = await category(stranger.key, 'Theirs');
    for (const bad of [
      `/s/${store.handle}/blog/categories/${theirs}`,
      `/s/${store.handle}/blog/categories/abc`,
      `/s/no-such-store/blog/categories/${tea}`,
      `${url}?before=nope`,
    ]) {
      const res = await get(bad);
      assert.equal(res.statusCode, 404, bad);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    const empty = await get(`/s/${stranger.store.handle}/blog/categories/${theirs}`);
    assert.equal(empty.statusCode, 200);
    assert.ok(empty.body.includes('目前沒有文章'));
  });

  it('sitemap.xml: a urlset of the index, every category page and every published post with <lastmod>; an index of parts above the limit; robots.txt', async () => {
    const { store, key } = await shop();
    const base = `http://blog.test/s/${store.handle}`;
    const cat = await category(key, 'Cat');
    const posts = [await published(key, { category_ids: [cat] }), await published(key), await published(key)];
    const draft = await createPost(suite.t, key, { title: 'Draft' });
    const scheduled = await createPost(suite.t, key);
    await publish(suite.t, key, scheduled.id, '2027-01-01T00:00:00Z');

    const res = await get(`/s/${store.handle}/sitemap.xml`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/xml; charset=utf-8');
    assert.equal(XMLValidator.validate(res.body), true);
    const urlset = xml.parse(res.body).urlset;
    assert.equal(urlset['@xmlns'], 'http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = urlset.url.map((u: { loc: string }) => u.loc);
    assert.deepEqual(locs, [
      `${base}/blog`,
      `${base}/blog/categories/${cat}`,
      ...posts.map((p) => `${base}/blog/posts/${p.id}`),
    ]);
    for (const u of urlset.url) assert.match(u.lastmod, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(!res.body.includes(`/posts/${draft.id}<`) && !res.body.includes(`/posts/${scheduled.id}<`));
    await assertRevalidates(`/s/${store.handle}/sitemap.xml`);
    assert.equal(
      (await get(`/s/${store.handle}/sitemap-1.xml`)).statusCode,
      404,
      'no parts while one file holds it all',
    );

    // Above the limit (lowered here, 50,000 in service): an index of parts, each a urlset within it.
    const publishing = suite.t.ctx.publishing;
    publishing.sitemapMaxUrls = 2;
    try {
      const index = await get(`/s/${store.handle}/sitemap.xml`);
      assert.equal(XMLValidator.validate(index.body), true);
      const sitemaps = xml.parse(index.body).sitemapindex.sitemap;
      assert.deepEqual(
        sitemaps.map((s: { loc: string }) => s.loc),
        [1, 2, 3].map((n) => `${base}/sitemap-${n}.xml`),
      );
      for (const s of sitemaps) assert.ok(!Number.isNaN(Date.parse(s.lastmod)));
      const parts = [];
      for (const n of [1, 2, 3]) {
        const part = await get(`/s/${store.handle}/sitemap-${n}.xml`);
        assert.equal(part.statusCode, 200);
        assertCached(part);
        parts.push(...xml.parse(part.body).urlset.url.map((u: { loc: string }) => u.loc));
      }
      assert.deepEqual(parts, locs, 'the parts hold every URL once, in order');
      for (const bad of ['4', '0', 'x', '01'])
        assert.equal((await get(`/s/${store.handle}/sitemap-${bad}.xml`)).statusCode, 404);
    } finally {
      publishing.sitemapMaxUrls = 50_000;
    }

    const robots = await get('/robots.txt');
    assert.equal(robots.statusCode, 200);
    assert.equal(robots.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(robots.headers['cache-control'], CACHE_CONTROL);
    assert.ok(robots.headers.etag);
    const lines = robots.body.split('\n');
    assert.equal(lines[0], 'User-agent: *');
    assert.ok(lines.includes('Disallow: /s/*/blog/preview/'), 'preview links are not crawled');
    assert.ok(lines.includes(`Sitemap: ${base}/sitemap.xml`));
    assert.equal((await get('/s/no-such-store/sitemap.xml')).statusCode, 404);
  });

  it('post pages: OpenGraph, Twitter card and one BlogPosting in JSON-LD, every value escaped for its context (hostile title and store name)', async () => {
    const hostileStore = `Shop </script><script>alert("s")</script> & 'Co'`;
    const { store, key } = await shop(hostileStore);
    const title = `</script><script>alert(1)</script> "quotes" & 'single' <!-- \u2028 end`;
    const cover = await insertImage(store);
    const post = await published(
      key,
      { title, summary: '"Sum" </script>', cover_image_url: cover },
      '2026-09-14T20:30:00Z',
    );
    const res = await get(`/s/${store.handle}/blog/posts/${post.id}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(await htmlProblems(res.body), []);
    const canonical = `http://blog.test/s/${store.handle}/blog/posts/${post.id}`;
    const { metas, links, scripts } = headOf(res.body);
    assert.equal(metas.get('og:title'), title);
    assert.equal(metas.get('og:description'), '"Sum" </script>');
    assert.equal(metas.get('og:type'), 'article');
    assert.equal(metas.get('og:url'), canonical);
    assert.equal(links.find((l) => l.rel === 'canonical')?.href, canonical, 'og:url is the canonical');
    assert.equal(metas.get('og:image'), cover);
    assert.equal(metas.get('og:site_name'), hostileStore);
    assert.equal(metas.get('article:published_time'), '2026-09-15T04:30:00+08:00');
    assert.equal(metas.get('twitter:card'), 'summary_large_image');
    assert.deepEqual(
      links.filter((l) => l.rel === 'alternate').map((l) => [l.type, l.href]),
      [
        ['application/atom+xml', `http://blog.test/s/${store.handle}/blog/feed.xml`],
        ['application/rss+xml', `http://blog.test/s/${store.handle}/blog/rss.xml`],
        ['application/feed+json', `http://blog.test/s/${store.handle}/blog/feed.json`],
      ],
    );
    const ld = scripts.filter((s) => s.attribs.type === 'application/ld+json');
    assert.equal(ld.length, 1);
    assert.equal(scripts.length, 2, 'the title opened no script of its own: JSON-LD and the beacon only');
    assert.ok(!/[<>]/.test(ld[0].text), 'nothing in the JSON can end the element');
    const data = JSON.parse(ld[0].text);
    assert.deepEqual(data, {
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: title,
      description: '"Sum" </script>',
      image: [cover],
      datePublished: '2026-09-15T04:30:00+08:00',
      dateModified: data.dateModified,
      url: canonical,
      mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
      author: { '@type': 'Organization', name: hostileStore },
      publisher: { '@type': 'Organization', name: hostileStore },
    });
    assert.match(data.dateModified, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);

    // Without a cover: a summary card, no image; the description falls back to the body's text.
    const plain = await published(key, { title: 'Plain', body_html: '<p>First words &amp; more</p>' });
    const head = headOf((await get(`/s/${store.handle}/blog/posts/${plain.id}`)).body);
    assert.equal(head.metas.get('twitter:card'), 'summary');
    assert.equal(head.metas.get('og:image'), undefined);
    assert.equal(head.metas.get('description'), 'First words & more');
    assert.equal(JSON.parse(head.scripts[0].text).image, undefined);

    const index = headOf((await get(`/s/${store.handle}/blog`)).body);
    assert.equal(index.links.filter((l) => l.rel === 'alternate').length, 3, 'the index links the three feeds');
    assert.ok(index.metas.get('description'));
  });

  it('with a custom store front base, feeds and the sitemap name the canonical addresses there; feeds’ own addresses stay here', async () => {
    const { store, key } = await shop();
    const post = await published(key, { title: 'Elsewhere' });
    await suite.t.ctx.stores.update(store.handle, { storefront_base_url: 'https://shop.example.com/journal' });
    const { parsed } = await feeds(store.handle);
    assert.equal(parsed.atom.entry[0].id, `https://shop.example.com/journal/blog/posts/${post.id}`);
    assert.equal(parsed.atom.link[0]['@href'], `http://blog.test/s/${store.handle}/blog/feed.xml`);
    assert.equal(parsed.rss.channel.link, 'https://shop.example.com/journal/blog');
    assert.equal(parsed.json.items[0].url, `https://shop.example.com/journal/blog/posts/${post.id}`);
    assert.equal(parsed.json.feed_url, `http://blog.test/s/${store.handle}/blog/feed.json`);
    const urls = xml
      .parse((await get(`/s/${store.handle}/sitemap.xml`)).body)
      .urlset.url.map((u: { loc: string }) => u.loc);
    assert.deepEqual(urls, [
      'https://shop.example.com/journal/blog',
      `https://shop.example.com/journal/blog/posts/${post.id}`,
    ]);
    const head = headOf((await get(`/s/${store.handle}/blog/posts/${post.id}`)).body);
    assert.equal(head.metas.get('og:url'), `https://shop.example.com/journal/blog/posts/${post.id}`);
  });

  it('two processes answer the same validators, and an edit through one shows at once through the other', async () => {
    const { store, key } = await shop();
    const post = await published(key, { title: 'Fleet' });
    const other = await secondInstance(suite.t);
    try {
      const urls = [
        `/s/${store.handle}/blog/posts/${post.id}`,
        `/s/${store.handle}/blog/feed.json`,
        `/s/${store.handle}/sitemap.xml`,
      ];
      const here = await Promise.all(urls.map((url) => get(url)));
      const there = await Promise.all(urls.map((url) => other.app.inject({ method: 'GET', url })));
      assert.deepEqual(
        there.map((r) => r.headers.etag),
        here.map((r) => r.headers.etag),
        'a CDN may revalidate a copy from one process against another',
      );
      suite.t.clock.advance(60_000);
      const res = await suite.t.request({
        method: 'PATCH',
        url: `/v1/blog/posts/${post.id}`,
        key,
        body: { title: 'Fleet, renamed' },
      });
      assert.equal(res.statusCode, 200);
      for (const [i, url] of urls.entries()) {
        const after = await other.app.inject({
          method: 'GET',
          url,
          headers: { 'if-none-match': String(here[i].headers.etag) },
        });
        assert.equal(after.statusCode, 200, `${url}: the old copy is stale on the other process too`);
        if (!url.endsWith('sitemap.xml')) assert.ok(after.body.includes('Fleet, renamed'), url);
      }
    } finally {
      suite.t.clock.set(START_TIME);
      await other.close();
    }
  });

  it('pages are cacheable: Cache-Control with stale-while-revalidate, ETag and Last-Modified, 304 to If-None-Match', async () => {
    const { store, key } = await shop();
    const post = await published(key);
    const cat = await category(key, 'C');
    for (const url of [
      `/s/${store.handle}/blog/posts/${post.id}`,
      `/s/${store.handle}/blog`,
      `/s/${store.handle}/blog/categories/${cat}`,
    ])
      await assertRevalidates(url);
    // Lists answer If-Modified-Since in full: a deleted post leaves no newer time behind.
    const index = await get(`/s/${store.handle}/blog`);
    assert.equal(
      (await get(`/s/${store.handle}/blog`, { 'if-modified-since': String(index.headers['last-modified']) }))
        .statusCode,
      200,
    );
  });
});
