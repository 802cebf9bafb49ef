// GET /v1/media/images and GET /v1/media/images/{id}: the store's live images, as the upload
// answered them. Deleted images are neither listed nor found (their addresses answer 404 too).
import type { Db } from '../../db/database.js';
import { ApiError } from '../../lib/api-error.js';
import type { CursorCodec } from '../../lib/cursor.js';
import type { Store } from '../stores/index.js';
import { IMAGE_ID_PATTERN } from './image-refs.js';
import { presentImage } from './image-presenter.js';
import type { ImageListQueryInput, ImageObject, ImagePage } from './image-schemas.js';
import { findLiveImage, listLiveImages, type ImageRow } from './media-repository.js';

const LIST_CURSOR_SCOPE = 'images';
/** The list takes no filter: a cursor carries only its position (and its holder). */
const NO_CONDITIONS = {};
const DEFAULT_LIMIT = 20;

export class ImageReads {
  constructor(
    private readonly db: Db,
    private readonly cursors: CursorCodec,
    private readonly publicBaseUrl: string,
  ) {}

  /** Newest first; `application` is the listing key's: next_cursor is issued to the store and that application. */
  async list(store: Store, query: ImageListQueryInput, application: string): Promise<ImagePage> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const holder = { storeId: store.id, application };
    const after = this.cursors.readPosition(LIST_CURSOR_SCOPE, NO_CONDITIONS, query.cursor, holder);
    const position = after && { createdAt: Number(after[0]), id: String(after[1]) };
    const rows = await listLiveImages(this.db, store.id, position, limit + 1);
    const page = this.cursors.page(
      LIST_CURSOR_SCOPE,
      NO_CONDITIONS,
      rows,
      limit,
      (row: ImageRow) => [Number(row.created_at), row.id],
      holder,
    );
    return {
      data: page.rows.map((row) => presentImage(store, row, this.publicBaseUrl)),
      meta: { next_cursor: page.nextCursor, limit },
    };
  }

  /** A live image of this store; anything else (unknown, another store's, deleted, malformed) → 404. */
  async get(store: Store, id: string): Promise<ImageObject> {
    const row = IMAGE_ID_PATTERN.test(id) ? await findLiveImage(this.db, store.id, id) : undefined;
    if (!row) throw new ApiError('not_found');
    return presentImage(store, row, this.publicBaseUrl);
  }
}
