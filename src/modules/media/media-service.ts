// Upload, de-duplication, deletion and serving of images. The service owns its transactions;
// files are written outside them (a transaction on SQLite holds the only connection, so no slow
// I/O happens inside one) in an order that never leaves a row pointing at a missing file.
import type { AppConfig, MediaSettings } from '../../config/config.js';
import { isUniqueViolation, type Db } from '../../db/database.js';
import { ApiError, detail } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { systemTimers, type Timers } from '../../lib/timers.js';
import { noObserver, timeWork, type Observer } from '../../lib/observations.js';
import { recordAudit, type Actor } from '../audit/index.js';
import { recordEvent, withdrawDeliveries } from '../events/index.js';
import { consumeQuota } from '../quotas/index.js';
import type { Store } from '../stores/index.js';
import {
  imagePublicRef,
  isValidBasename,
  isValidHandle,
  newBasename,
  newImageId,
  IMAGE_ID_PATTERN,
} from './image-refs.js';
import {
  ImageRejection,
  processImage,
  type DecodeBudget,
  type ImageLimits,
  type ProcessedImage,
} from './image-processor.js';
import type { ImageObject } from './image-schemas.js';
import { presentImage } from './image-presenter.js';
import { createMediaStore } from './create-media-store.js';
import type { MediaStore } from './media-store.js';
import { FILE_FIELD, type UploadedFile } from './uploaded-file.js';
import { NoTurnInTime, ProcessingTurns } from './processing-turns.js';
import { lowerImageThreadPriority } from './image-thread-priority.js';
import { removeImageFiles } from './image-files.js';
import { ImageVariants, imageEtag, type ServedImage } from './image-variant-service.js';
import {
  findLiveImage,
  findLiveImageByContent,
  findPublicImage,
  forgetOwedRemoval,
  insertImage,
  markImageDeleted,
  postsUsingImage,
  restoreImage,
  type ImageRow,
} from './media-repository.js';

/** Posts listed in an image_in_use error (docs/media.md: at most 20). */
export const IN_USE_DETAILS_MAX = 20;

export interface UploadResult {
  /** false when the same content was already a live image of the store (answer 200). */
  created: boolean;
  image: ImageObject;
}

export class MediaService {
  /** Hears how long each image took to process (metrics). */
  observer: Observer = noObserver;
  /**
   * What an upload's idle and total limits (src/http/upload-reader.ts) and its wait for a
   * processing turn wait on; tests move time by hand.
   */
  uploadTimers: Timers = systemTimers;
  /** Turns at decoding and re-encoding, shared by the stores in rotation (docs/media.md, "Processing turns"). */
  readonly processing: ProcessingTurns;
  /** Responsive variants (`?w=N`), made with the same turns as uploads (docs/media.md, "Variants"). */
  readonly variants: ImageVariants;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly files: MediaStore,
    private readonly publicBaseUrl: string,
    readonly settings: MediaSettings,
  ) {
    this.processing = new ProcessingTurns(settings.processingConcurrency, settings.processingWaitMs);
    this.variants = new ImageVariants(db, clock, files, this.processing, settings, {
      observer: () => this.observer,
      timers: () => this.uploadTimers,
    });
  }

  /** Stores a new image, or answers with the live image that has the same uploaded bytes. */
  async upload(store: Store, file: UploadedFile, actor: Actor): Promise<UploadResult> {
    // De-duplication first: a replay costs no decoding, no quota and no audit event.
    const existing = await findLiveImageByContent(this.db, store.id, file.sha256);
    if (existing) return { created: false, image: this.present(store, existing) };

    const budget = {
      maxAnimationPixels: this.settings.maxAnimationPixels,
      timeoutSeconds: this.settings.processingTimeoutSeconds,
    };
    const release = await this.processingTurn(store);
    let processed: ProcessedImage;
    try {
      processed = await timeWork(
        this.observer,
        'image_processing',
        () => processUpload(file.data, limitsOf(store), budget),
        (err) => err instanceof ApiError,
      );
    } finally {
      // libvips starts its threads as it needs them: the ones this image used are lowered for the next.
      lowerImageThreadPriority();
      release();
    }
    const row: ImageRow = {
      id: newImageId(),
      store_id: store.id,
      basename: newBasename(processed.format),
      sha256: file.sha256,
      content_type: processed.contentType,
      width: processed.width,
      height: processed.height,
      bytes: processed.bytes,
      created_at: this.clock.now().getTime(),
      deleted_at: null,
    };
    // File first, row second: a crash in between leaves an unreferenced file (never served,
    // since serving asks the database), not a row whose address answers 404.
    await this.files.put(store.handle, row.basename, processed.data);
    try {
      await this.db.transaction().execute(async (trx) => {
        // Insert before taking quota: a concurrent twin then fails on the live-content index
        // (and answers 200) instead of waiting for, and possibly failing, the quota row.
        await insertImage(trx, row);
        await consumeQuota(trx, store.id, 'images', store.quotas.imagesPerDay, row.created_at);
        await recordAudit(trx, actor, {
          action: 'image.uploaded',
          resourceType: 'image',
          resourceId: row.id,
          changes: [FILE_FIELD],
          at: row.created_at,
        });
        await recordEvent(trx, store, 'image.uploaded', row.created_at, () => this.present(store, row));
      });
    } catch (err) {
      await this.files.remove(store.handle, row.basename).catch(() => undefined);
      if (isUniqueViolation(err)) {
        // Another request stored the same content first (the partial unique index decided).
        const winner = await findLiveImageByContent(this.db, store.id, file.sha256);
        if (winner) return { created: false, image: this.present(store, winner) };
      }
      throw err;
    }
    return { created: true, image: this.present(store, row) };
  }

  /** Waits for a turn at image processing; a wait past its bound is refused as retryable. */
  private async processingTurn(store: Store): Promise<() => void> {
    try {
      return await this.processing.acquire(String(store.id), this.uploadTimers);
    } catch (err) {
      if (!(err instanceof NoTurnInTime)) throw err;
      // The contract's answer to "too much in flight, send it again shortly" (Retry-After about 1 s).
      throw new ApiError('concurrency_limited', [], { 'Retry-After': '1' });
    }
  }

  /**
   * Deletes a live image of the store: the row is marked deleted with its audit event in one
   * transaction, then its variants and its file are removed. If a file cannot be removed the row is restored
   * (its audit event and its webhook deliveries not yet sent withdrawn, and its return recorded as an image.uploaded event) so the database and the
   * files agree, and the caller gets a 500.
   */
  async delete(store: Store, id: string, actor: Actor): Promise<void> {
    const image = IMAGE_ID_PATTERN.test(id) ? await findLiveImage(this.db, store.id, id) : undefined;
    if (!image) throw new ApiError('not_found');
    const now = this.clock.now().getTime();
    const eventId = await this.db.transaction().execute(async (trx) => {
      const users = await this.postsUsing(trx, store, image);
      if (users.length > 0)
        throw new ApiError(
          'image_in_use',
          users.map((postId) => detail('post_id', String(postId))),
        );
      // The removal the file is owed is committed with the deletion: if this process dies before
      // the file is gone, housekeeping finds the record and removes it.
      const deleted = await markImageDeleted(trx, image.id, now);
      // A concurrent delete of the same image won; repeating a delete answers 404.
      if (!deleted) throw new ApiError('not_found');
      await recordAudit(trx, actor, {
        action: 'image.deleted',
        resourceType: 'image',
        resourceId: image.id,
        changes: [],
        at: now,
      });
      return recordEvent(trx, store, 'image.deleted', now, () => this.present(store, image));
    });
    try {
      await removeImageFiles(this.files, store.handle, image.basename, image.width);
    } catch (removeError) {
      await this.restore(store, image, eventId, removeError);
      throw new Error(`Image ${image.id}: file could not be removed; the deletion was rolled back`, {
        cause: removeError,
      });
    }
    // The file is gone; a record left behind by a failure here only makes housekeeping repeat a
    // removal that already happened, so the deletion still answers success.
    await forgetOwedRemoval(this.db, image.id).catch(() => undefined);
  }

  /** The file behind a public address, or null for anything unknown, deleted or malformed. */
  async openPublic(handle: string, basename: string, withBody: boolean): Promise<ServedImage | null> {
    if (!isValidHandle(handle) || !isValidBasename(basename)) return null;
    const row = await findPublicImage(this.db, handle, basename);
    if (!row) return null;
    const etag = imageEtag(basename);
    if (!withBody) {
      const info = await this.files.stat(handle, basename);
      return info && { contentType: row.content_type, bytes: info.bytes, modifiedAt: info.modifiedAt, etag };
    }
    const opened = await this.files.open(handle, basename);
    return (
      opened && {
        contentType: row.content_type,
        bytes: opened.info.bytes,
        modifiedAt: opened.info.modifiedAt,
        etag,
        stream: opened.stream,
      }
    );
  }

  /** Ids of the store's posts (drafts included) using the image, by id, at most 20. */
  private async postsUsing(trx: Db, store: Store, image: ImageRow): Promise<number[]> {
    // The url is the public base followed by the path, so looking for the path finds both, and
    // still finds bodies written before PUBLIC_BASE_URL changed. The path holds only
    // [a-z0-9/.-], none of which is a LIKE wildcard.
    const { path } = imagePublicRef(store.handle, image.basename, this.publicBaseUrl);
    return postsUsingImage(trx, store.id, image.id, path, IN_USE_DETAILS_MAX);
  }

  private async restore(store: Store, image: ImageRow, eventId: string, cause: unknown): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        // The deletion did not happen, so its audit event goes too: events record successful writes.
        await restoreImage(trx, store.id, image.id);
        // Its deliveries not yet sent are withdrawn; the feed keeps the image.deleted a consumer
        // may have read, so the image's return is an event of its own there.
        await withdrawDeliveries(trx, eventId);
        await recordEvent(trx, store, 'image.uploaded', this.clock.now().getTime(), () => this.present(store, image));
      });
    } catch (restoreError) {
      // E.g. the same content was uploaded again meanwhile, so the row cannot be live twice. The
      // image stays deleted and its media_deletions record makes housekeeping remove the file.
      /* eslint-disable preserve-caught-error -- both failures are the cause: the removal's and the restore's */
      throw new Error(`Image ${image.id}: file removal failed and the row could not be restored`, {
        cause: [cause, restoreError],
      });
      /* eslint-enable preserve-caught-error */
    }
  }

  private present(store: Store, row: ImageRow): ImageObject {
    return presentImage(store, row, this.publicBaseUrl);
  }
}

function limitsOf(store: Store): ImageLimits {
  return {
    maxBytes: store.limits.imageMaxBytes,
    maxPixels: store.limits.imageMaxPixels,
    maxGifFrames: store.limits.imageMaxGifFrames,
    maxTotalPixels: store.limits.imageMaxTotalPixels,
    maxWidth: store.limits.imageMaxWidth,
  };
}

/** processImage with its client-side rejections turned into API errors naming `file`. */
async function processUpload(data: Buffer, limits: ImageLimits, budget: DecodeBudget): Promise<ProcessedImage> {
  try {
    return await processImage(data, limits, budget);
  } catch (err) {
    if (!(err instanceof ImageRejection)) throw err;
    switch (err.reason) {
      case 'unsupported_media_type':
        throw new ApiError('unsupported_media_type', [detail(FILE_FIELD, err.detail)]);
      case 'image_too_large':
        throw new ApiError('image_too_large', [detail(FILE_FIELD, err.detail)]);
      case 'unreadable':
        throw new ApiError('validation_failed', [detail(FILE_FIELD, `is not a readable image: ${err.detail}`)]);
    }
  }
}

/** The service as the application runs it: files in the configured store (MEDIA_STORE). */
export function createMediaService(
  db: Db,
  clock: Clock,
  config: AppConfig,
  store: MediaStore = createMediaStore(config),
): MediaService {
  return new MediaService(db, clock, store, config.publicBaseUrl, config.media);
}
