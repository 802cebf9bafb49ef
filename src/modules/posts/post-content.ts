// The business rules on a post's content, shared by create and update: title, body size and
// filtering, categories, cover image. Each failure is an API error naming the field.
import type { Db } from '../../db/database.js';
import { ApiError, detail } from '../../lib/api-error.js';
import { sha256Hex } from '../../lib/crypto.js';
import type { Store } from '../stores/index.js';
import { findOwnedImageByUrl } from '../media/index.js';
import { PostHtmlNestingError } from './html-filter.js';
import { storeCategoryIds } from './post-repository.js';
import type { HtmlFilter } from './html-filter-pool.js';
import { checkTitle, describeCharacters, normalizeTitle } from './title-rules.js';

export function prepareTitle(raw: string, store: Store): string {
  const title = normalizeTitle(raw);
  const problem = checkTitle(title, {
    maxLength: store.limits.titleMaxLength,
    allowsEmoji: store.limits.titleAllowsEmoji,
  });
  if (!problem) return title;
  switch (problem.kind) {
    case 'empty':
      throw new ApiError('validation_failed', [detail('title', 'must not be empty')]);
    case 'too_long':
      throw new ApiError('validation_failed', [detail('title', `must be at most ${problem.max} characters`)]);
    case 'control_characters':
      throw new ApiError('validation_failed', [detail('title', 'must not contain control characters')]);
    case 'unsupported_characters':
      throw new ApiError('title_charset_unsupported', [
        detail('title', `unsupported characters: ${describeCharacters(problem.characters)}`),
      ]);
  }
}

/** Size is measured on body_html as sent (UTF-8 bytes), then the allow-list filter runs. */
export async function prepareBody(
  raw: string,
  store: Store,
  htmlFilter: HtmlFilter,
): Promise<{ html: string; warnings: string[] }> {
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > store.limits.bodyMaxBytes) {
    throw new ApiError('content_too_large', [
      detail('body_html', `is ${bytes} bytes; the limit is ${store.limits.bodyMaxBytes}`),
    ]);
  }
  try {
    return await htmlFilter.filter(raw);
  } catch (err) {
    if (err instanceof PostHtmlNestingError) {
      throw new ApiError('validation_failed', [
        detail('body_html', `nests elements deeper than ${err.maxDepth} levels`),
      ]);
    }
    throw err;
  }
}

export async function checkCategories(
  db: Db,
  store: Store,
  categoryIds: number[],
  defaultCategoryId: number | null,
): Promise<void> {
  if (!store.features.blogCategories && categoryIds.length > 0) {
    throw new ApiError('validation_failed', [
      detail('category_ids', 'categories are not enabled for this store; send an empty array'),
    ]);
  }
  if (defaultCategoryId !== null && !categoryIds.includes(defaultCategoryId)) {
    throw new ApiError('validation_failed', [detail('default_category_id', 'must be one of category_ids')]);
  }
  if (categoryIds.length === 0) return;
  const found = new Set(await storeCategoryIds(db, store.id, categoryIds));
  const unknown = categoryIds.map((id, i) => [id, i] as const).filter(([id]) => !found.has(id));
  if (unknown.length > 0) {
    throw new ApiError(
      'validation_failed',
      unknown.map(([, i]) => detail(`category_ids[${i}]`, 'is not a category of this store')),
    );
  }
}

export async function resolveCover(
  db: Db,
  store: Store,
  url: string,
  publicBaseUrl: string,
): Promise<{ id: string; basename: string }> {
  const image = await findOwnedImageByUrl(db, store, url, publicBaseUrl);
  if (!image)
    throw new ApiError('cover_image_not_owned', [
      detail('cover_image_url', 'is not the url of a live image uploaded by this store'),
    ]);
  return { id: image.id, basename: image.basename };
}

/** Same store, same title and body (as stored) → same fingerprint. */
export function contentFingerprint(title: string, bodyHtml: string): string {
  return sha256Hex(`${title}\u0000${bodyHtml}`);
}
