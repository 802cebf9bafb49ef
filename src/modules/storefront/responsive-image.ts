// Responsive <img> markup for post pages (docs/storefront.md, "Images"): the store's own images
// get a srcset of their variants (`?w=N`, widths below the image's own) plus the image itself,
// sizes matching the page's column, and width and height from the images table, so the browser
// reserves their space before they load. The first image of a page (the cover, when there is
// one) loads at once, as it is usually the largest paint; every later one is loading="lazy".
import type { Db } from '../../db/database.js';
import { isValidBasename, VARIANT_WIDTHS } from '../media/index.js';
import { escapeHtml, html, type SafeHtml } from './html-template.js';
import { imageSizes, type ImageSize } from './image-size-repository.js';

/**
 * The width an image takes on a post page: the whole viewport less main's padding on a narrow
 * screen, the column (46rem less 2 × 1.25rem padding, storefront-style.ts) on a wide one.
 */
export const IMAGE_SIZES = '(max-width: 46rem) calc(100vw - 2.5rem), 43.5rem';

/** `<url>?w=320 320w, …, <url> <width>w`: each offered width below the image's, then the image. */
export function srcsetOf(url: string, width: number): string {
  return [...VARIANT_WIDTHS.filter((w) => w < width).map((w) => `${url}?w=${w} ${w}w`), `${url} ${width}w`].join(', ');
}

/** The cover: the first image of the page, so never lazy, and fetched first. */
export function coverImage(url: string, alt: string, size: ImageSize): SafeHtml {
  if (!size.width) return html`<img class="cover" src="${url}" alt="${alt}">`;
  return html`<img class="cover" src="${url}" srcset="${srcsetOf(url, size.width)}" sizes="${IMAGE_SIZES}" alt="${alt}" width="${size.width}" height="${size.height}" fetchpriority="high">`;
}

/** An <img> of the filtered body: ` name="value"` attributes, written `<img … />` (html-filtered-form.ts). */
const BODY_IMG = /<img((?: [a-z]+="[^"]*")*) \/>/g;
const ATTRIBUTE = / ([a-z]+)="([^"]*)"/g;

/** The store's own image a body src names (its full url or its path), else null. */
function ownBasename(src: string, prefixes: string[]): string | null {
  for (const prefix of prefixes) {
    if (!src.startsWith(prefix)) continue;
    const basename = src.slice(prefix.length);
    return isValidBasename(basename) ? basename : null;
  }
  return null;
}

/**
 * The body with responsive <img> tags: the store's own images get srcset, sizes, width and
 * height (their stored size, replacing any the author wrote); every image is lazy unless it is
 * the page's first (`coverFirst`: a cover comes before the body). Other sources keep their own
 * attributes and get only the loading rule. Attribute values of the filtered body never hold `"`.
 */
export async function responsiveBody(
  db: Db,
  storeId: number,
  mediaPrefixes: string[],
  bodyHtml: string,
  coverFirst: boolean,
): Promise<string> {
  const tags = [...bodyHtml.matchAll(BODY_IMG)].map((m) => ({
    markup: m[0],
    attributes: [...m[1].matchAll(ATTRIBUTE)].map(([, name, value]) => ({ name, value })),
  }));
  if (tags.length === 0) return bodyHtml;
  const sources = tags.map((t) => ownBasename(t.attributes.find((a) => a.name === 'src')?.value ?? '', mediaPrefixes));
  const sizes = await imageSizes(db, storeId, [...new Set(sources.filter((s): s is string => s !== null))]);
  let index = 0;
  return bodyHtml.replace(BODY_IMG, () => {
    const at = index++;
    const size = sources[at] === null ? undefined : sizes.get(sources[at]);
    const lazy = coverFirst || at > 0;
    const kept = tags[at].attributes.filter(
      (a) => a.name !== 'loading' && (size === undefined || (a.name !== 'width' && a.name !== 'height')),
    );
    let out = '<img';
    for (const { name, value } of kept) {
      out += ` ${name}="${value}"`;
      if (name === 'src' && size) {
        out += ` srcset="${escapeHtml(srcsetOf(value, size.width))}" sizes="${IMAGE_SIZES}"`;
      }
    }
    if (size) out += ` width="${size.width}" height="${size.height}"`;
    if (lazy) out += ' loading="lazy"';
    return `${out} />`;
  });
}
