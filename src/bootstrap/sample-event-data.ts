// The data of a sample event (POST /v1/webhooks/{id}/test with a content `type`): what the real
// event would carry for the store's newest resource of that kind, read through the same services
// and presenters as the real events, so an integrator's receiver sees exactly that shape. Here,
// above the modules, because webhooks sit below posts, categories and media.
import type { CategoryService } from '../modules/categories/index.js';
import type { ImageReads } from '../modules/media/index.js';
import type { PostService } from '../modules/posts/index.js';
import type { Store } from '../modules/stores/index.js';
import type { ContentEventType } from '../modules/webhooks/index.js';

/** The application name the sample's reads are made under (list cursors are scoped by it; none is kept). */
const SAMPLE_READER = 'webhook-sample';

export function sampleEventData(parts: { posts: PostService; categories: CategoryService; images: ImageReads }) {
  return async (store: Store, type: ContentEventType): Promise<unknown> => {
    const deleted = type.endsWith('.deleted');
    if (type.startsWith('post.')) {
      const [newest] = (await parts.posts.list(store, { limit: 1 }, SAMPLE_READER)).data;
      if (!newest) return null;
      // A list item leaves the body out; the event carries the whole post, as GET answers it.
      return deleted ? { id: newest.id } : parts.posts.get(store, newest.id);
    }
    if (type.startsWith('category.')) {
      const { data } = await parts.categories.list(store);
      const newest = data.reduce<(typeof data)[number] | null>((a, c) => (a === null || c.id > a.id ? c : a), null);
      if (!newest) return null;
      return deleted ? { id: newest.id } : newest;
    }
    // image.uploaded and image.deleted both carry the image object.
    const [image] = (await parts.images.list(store, { limit: 1 }, SAMPLE_READER)).data;
    return image ?? null;
  };
}
