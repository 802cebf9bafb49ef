// The HTML of the store front pages. Texts shown to shoppers are Traditional Chinese, like the
// service's messages. Values from users are escaped by the `html` template; the filtered body
// is the one piece of user markup inserted as is.
import { formatWithOffset } from '../../lib/time.js';
import { html, trustedHtml, type SafeHtml } from './html-template.js';
import { coverImage } from './responsive-image.js';
import { feedLinks, richPreview } from './rich-preview.js';
import { textExcerpt } from './text-excerpt.js';
import { VIEW_BEACON_INTEGRITY } from './view-beacon.js';
import type { CategoryLabel, IndexEntry, PreviewPost, VisiblePost } from './storefront-repository.js';
import { STOREFRONT_CSS } from './storefront-style.js';

export interface PageStore {
  name: string;
  utcOffset: string;
  /** The service's own address of this store's pages: `<PUBLIC_BASE_URL>/s/<handle>`. */
  serviceBase: string;
  /** The view beacon script's address (under PUBLIC_BASE_URL, named in the page's policy). */
  beaconScriptUrl: string;
}

function layout(
  store: PageStore,
  title: string,
  head: SafeHtml | string,
  main: SafeHtml,
  banner: SafeHtml | string = '',
  tail: SafeHtml | string = '',
): string {
  return html`<!doctype html>
<html lang="zh-Hant-TW">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${head}<style>${trustedHtml(STOREFRONT_CSS)}</style>
</head>
<body>
${banner}<header class="site"><a href="${store.serviceBase}/blog">${store.name}</a></header>
<main>
${main}
</main>
<footer class="foot">${store.name}</footer>
${tail}</body>
</html>
`.value;
}

function publishedTime(epochMs: number, offset: string): SafeHtml {
  const iso = formatWithOffset(epochMs, offset);
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
}

export interface PostPageInput {
  store: PageStore;
  post: VisiblePost | PreviewPost;
  categories: CategoryLabel[];
  coverUrl: string | null;
  canonicalUrl: string;
  /** A preview link's page: banner, noindex, no canonical address, the status instead of a date when not published. */
  preview?: { now: number };
}

/** What the banner of a preview says about the post's status. */
function previewBanner(publishedAt: number | null, now: number, offset: string): SafeHtml {
  const status =
    publishedAt === null
      ? '草稿，尚未發佈'
      : publishedAt > now
        ? `已排程，將於 ${formatWithOffset(publishedAt, offset).slice(0, 16).replace('T', ' ')} 發佈`
        : '已發佈';
  return html`<p class="preview" role="status">預覽：${status}。此頁面只供持有連結的人檢視，不會被搜尋引擎收錄。</p>\n`;
}

/** The <head> of a published post's page: description, canonical link, feeds, rich previews. */
function publicPostHead(store: PageStore, post: VisiblePost, canonicalUrl: string, coverUrl: string | null): SafeHtml {
  const description = post.summary ?? textExcerpt(post.bodyHtml);
  const preview = richPreview({
    storeName: store.name,
    utcOffset: store.utcOffset,
    title: post.title,
    summary: description || null,
    canonicalUrl,
    coverUrl,
    publishedAt: post.publishedAt,
    modifiedAt: post.updatedAt,
  });
  return html`${description ? html`<meta name="description" content="${description}">\n` : ''}<link rel="canonical" href="${canonicalUrl}">\n${feedLinks(store.serviceBase, store.name)}${preview}`;
}

export function renderPostPage({ store, post, categories, coverUrl, canonicalUrl, preview }: PostPageInput): string {
  const head =
    preview || post.publishedAt === null
      ? html`<meta name="robots" content="noindex, nofollow">\n`
      : publicPostHead(store, { ...post, publishedAt: post.publishedAt }, canonicalUrl, coverUrl);
  // A list cannot sit inside a paragraph, so the date and the categories share a div.
  const categoryList = categories.length
    ? html` · <ul class="categories">${categories.map((c) => html`<li><a href="${store.serviceBase}/blog/categories/${c.id}">${c.name}</a></li>`)}</ul>`
    : '';
  const cover = post.cover && coverUrl ? html`${coverImage(coverUrl, post.title, post.cover)}\n` : '';
  const main = html`<article>
<h1>${post.title}</h1>
<div class="meta">${post.publishedAt === null ? '草稿' : publishedTime(post.publishedAt, store.utcOffset)}${categoryList}</div>
${cover}${post.summary ? html`<p class="summary">${post.summary}</p>\n` : ''}<div class="body">
${trustedHtml(post.bodyHtml)}
</div>
</article>`;
  const title = `${preview ? '預覽：' : ''}${post.title} | ${store.name}`;
  if (preview) return layout(store, title, head, main, previewBanner(post.publishedAt, preview.now, store.utcOffset));
  // The view beacon (view-beacon.ts): the page itself may come from a cache.
  const beacon = html`<script src="${store.beaconScriptUrl}" integrity="${VIEW_BEACON_INTEGRITY}" crossorigin="anonymous" data-views="${store.serviceBase}/blog/posts/${post.id}/views" async></script>\n`;
  return layout(store, title, head, main, '', beacon);
}

export interface IndexPageInput {
  store: PageStore;
  posts: IndexEntry[];
  /** Query value of the next (older) page, or null on the last page. */
  olderCursor: string | null;
  isFirstPage: boolean;
  /** A category's page instead of the whole blog's. */
  category?: { id: number; name: string };
}

export function renderIndexPage({ store, posts, olderCursor, isFirstPage, category }: IndexPageInput): string {
  const listUrl = category ? `${store.serviceBase}/blog/categories/${category.id}` : `${store.serviceBase}/blog`;
  const items = posts.map(
    (p) => html`<li><h2><a href="${store.serviceBase}/blog/posts/${p.id}">${p.title}</a></h2>
<p class="meta">${publishedTime(p.publishedAt, store.utcOffset)}</p>${p.summary ? html`<p>${p.summary}</p>` : ''}</li>
`,
  );
  const pager = html`<nav class="pager">${isFirstPage ? html`<span></span>` : html`<a href="${listUrl}" rel="first">最新文章</a>`}${
    olderCursor ? html`<a href="${listUrl}?before=${olderCursor}" rel="next">較舊的文章</a>` : ''
  }</nav>`;
  const main = html`<h1>${category ? category.name : '部落格'}</h1>
${posts.length ? html`<ul class="posts">\n${items}</ul>` : html`<p>目前沒有文章。</p>`}
${pager}`;
  const description = category
    ? `${store.name} 部落格「${category.name}」分類的文章`
    : `${store.name} 部落格的最新文章`;
  const head = html`<meta name="description" content="${description}">\n${feedLinks(store.serviceBase, store.name)}`;
  const title = category ? `${category.name} | 部落格 | ${store.name}` : `部落格 | ${store.name}`;
  return layout(store, title, head, main);
}

/** One page for every "not visible": unknown store, draft, scheduled, deleted, another store's. */
export function renderNotFoundPage(): string {
  return bareLayout('找不到頁面', html`<h1>找不到頁面</h1>\n<p>這篇文章不存在或尚未公開。</p>`);
}

export function renderErrorPage(): string {
  return bareLayout('暫時無法顯示', html`<h1>暫時無法顯示</h1>\n<p>請稍後再試一次。</p>`);
}

function bareLayout(title: string, main: SafeHtml): string {
  return html`<!doctype html>
<html lang="zh-Hant-TW">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${trustedHtml(STOREFRONT_CSS)}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`.value;
}
