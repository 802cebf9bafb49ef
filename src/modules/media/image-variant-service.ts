// GET /media/<handle>/<basename>?w=N: the image at a width of VARIANT_WIDTHS (never upscaled),
// in the format the client's Accept header earns (image-variants.ts). A variant is made once,
// on its first request, and kept in the media store beside its image; later requests read that
// file. Making one takes a processing turn like an upload (processing-turns.ts), and requests
// for the same variant arriving while it is made wait for that one result.
import { Readable } from 'node:stream';
import type { MediaSettings } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { ApiError } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { timeWork, type Observer } from '../../lib/observations.js';
import type { Timers } from '../../lib/timers.js';
import { isValidBasename, isValidHandle } from './image-refs.js';
import { lowerImageThreadPriority } from './image-thread-priority.js';
import { ImageRejection } from './image-types.js';
import {
  formatOfBasename,
  negotiateFormat,
  outputWidth,
  VARIANT_FORMAT_INFO,
  variantName,
  type VariantFormat,
} from './image-variants.js';
import { findLiveImageId, findVariantSource, type VariantSource } from './media-repository.js';
import type { MediaStore } from './media-store.js';
import { NoTurnInTime, type ProcessingTurns } from './processing-turns.js';
import { makeVariant } from './variant-processor.js';

/** A file answered for a public address; the same shape for an image and a variant. */
export interface ServedImage {
  contentType: string;
  bytes: number;
  modifiedAt: Date;
  /** Strong validator: a stored name never changes content, so the name itself identifies it. */
  etag: string;
  /** Absent when only the headers were asked for (HEAD). */
  stream?: Readable;
}

/** Variants whose making was refused (limits, time budget) that this process answers with the image instead. */
const REFUSED_REMEMBERED = 1000;

export interface VariantHooks {
  /** Where the time of each variant made is reported (metrics). */
  observer(): Observer;
  /** What the wait for a processing turn waits on (tests move time by hand). */
  timers(): Timers;
}

export class ImageVariants {
  private readonly inFlight = new Map<string, Promise<Buffer | null>>();
  private readonly refused = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly files: MediaStore,
    private readonly turns: ProcessingTurns,
    private readonly settings: MediaSettings,
    private readonly hooks: VariantHooks,
  ) {}

  /**
   * The variant of a live image for `width` (one of VARIANT_WIDTHS) and `accept`, made now if it
   * is not stored yet; null for anything unknown, deleted or malformed. When the variant would be
   * the image itself (its own width and format), or making it was refused, the image is answered.
   */
  async open(
    handle: string,
    basename: string,
    width: number,
    accept: string | undefined,
    withBody: boolean,
  ): Promise<ServedImage | null> {
    if (!isValidHandle(handle) || !isValidBasename(basename)) return null;
    const source = await findVariantSource(this.db, handle, basename);
    if (!source) return null;
    const own = formatOfBasename(basename);
    const outWidth = outputWidth(width, source.width);
    const format = negotiateFormat(accept, own);
    const original = () => this.openStored(handle, basename, source.contentType, imageEtag(basename), withBody);
    if (outWidth === source.width && format === own) return original();
    const name = variantName(basename, outWidth, format);
    const contentType = VARIANT_FORMAT_INFO[format].contentType;
    const etag = variantEtag(basename, outWidth, format);
    const stored = await this.openStored(handle, name, contentType, etag, withBody);
    if (stored) return stored;
    const key = `${handle}/${name}`;
    if (this.refused.has(key)) return original();
    let data: Buffer | null;
    try {
      data = await this.made(key, () => this.make(source, handle, basename, name, outWidth, format));
    } catch (err) {
      if (!(err instanceof ImageRejection)) throw err;
      // A picture that took its upload's checks but not its variant's (the store's limits were
      // lowered since, or it is costly to scale): it is still shown, at its stored size.
      if (this.refused.size >= REFUSED_REMEMBERED) this.refused.clear();
      this.refused.add(key);
      return original();
    }
    if (!data) return null;
    return {
      contentType,
      bytes: data.length,
      modifiedAt: this.clock.now(),
      etag,
      ...(withBody ? { stream: Readable.from([data]) } : {}),
    };
  }

  /** One making per variant at a time in this process: later requests share the first one's result. */
  private made(key: string, make: () => Promise<Buffer | null>): Promise<Buffer | null> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = make().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * Makes and stores a variant; null when the image went away meanwhile. Two processes may make
   * the same variant at once: each writes the whole file under the same name, atomically, so the
   * second write replaces the first with an equal picture.
   */
  private async make(
    source: VariantSource,
    handle: string,
    basename: string,
    name: string,
    width: number,
    format: VariantFormat,
  ): Promise<Buffer | null> {
    const release = await this.turn(source.storeId);
    let data: Buffer;
    try {
      const input = await this.readStored(handle, basename);
      if (!input) return null;
      const budget = {
        maxAnimationPixels: this.settings.maxAnimationPixels,
        timeoutSeconds: this.settings.processingTimeoutSeconds,
      };
      data = await timeWork(
        this.hooks.observer(),
        'image_variant',
        () => makeVariant(input, width, format, source.limits, budget),
        (err) => err instanceof ImageRejection,
      );
    } finally {
      lowerImageThreadPriority();
      release();
    }
    await this.files.put(handle, name, data);
    // Deleted while this was made: its deletion may have removed the variants before this one
    // was written, so it is removed here (housekeeping would also find it).
    if ((await findLiveImageId(this.db, source.storeId, basename)) === undefined) {
      await this.files.remove(handle, name).catch(() => undefined);
      return null;
    }
    return data;
  }

  /** A turn at image processing, owned by the store like its uploads; a wait past its bound → 429. */
  private async turn(storeId: number): Promise<() => void> {
    try {
      return await this.turns.acquire(String(storeId), this.hooks.timers());
    } catch (err) {
      if (!(err instanceof NoTurnInTime)) throw err;
      throw new ApiError('concurrency_limited', [], { 'Retry-After': '1' });
    }
  }

  private async readStored(handle: string, name: string): Promise<Buffer | null> {
    const opened = await this.files.open(handle, name);
    if (!opened) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async openStored(
    handle: string,
    name: string,
    contentType: string,
    etag: string,
    withBody: boolean,
  ): Promise<ServedImage | null> {
    if (!withBody) {
      const info = await this.files.stat(handle, name);
      return info && { contentType, bytes: info.bytes, modifiedAt: info.modifiedAt, etag };
    }
    const opened = await this.files.open(handle, name);
    return (
      opened && {
        contentType,
        bytes: opened.info.bytes,
        modifiedAt: opened.info.modifiedAt,
        etag,
        stream: opened.stream,
      }
    );
  }
}

/** The image's own ETag: its basename without the extension. */
export function imageEtag(basename: string): string {
  return `"${basename.slice(0, basename.indexOf('.'))}"`;
}

/** Distinct per width and format, and never equal to the image's own. */
function variantEtag(basename: string, width: number, format: VariantFormat): string {
  return `"${basename.slice(0, basename.indexOf('.'))}-w${width}-${VARIANT_FORMAT_INFO[format].extension}"`;
}
