import { PageIterator } from '../paging.js';
import type { RequestOptions } from '../transport.js';
import type { Image, ImageListQuery, ImagePage } from '../types.js';
import { id, requestOptions, Resource } from './resource.js';

export interface UploadOptions extends RequestOptions {
  /** The file name sent with the image (default "image"). */
  filename?: string;
}

export class ImagesApi extends Resource {
  /**
   * Uploads an image (JPEG, PNG, GIF or WebP); an identical image already uploaded is returned
   * as is. That de-duplication makes a resend harmless, so an upload whose answer was lost is
   * retried like a GET.
   */
  async upload(data: Uint8Array | Blob, options: UploadOptions = {}): Promise<Image> {
    const form = new FormData();
    form.append(
      'file',
      data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>]),
      options.filename ?? 'image',
    );
    return this.body({
      method: 'POST',
      path: '/v1/media/images',
      form,
      idempotent: true,
      options: requestOptions(options),
    });
  }

  /** The store's images, newest upload first, fetching page after page as you iterate. */
  list(query: ImageListQuery = {}, options?: RequestOptions): PageIterator<Image> {
    return new PageIterator(query.cursor, (cursor) =>
      this.listPage({ ...query, ...(cursor === undefined ? {} : { cursor }) }, options),
    );
  }

  async listPage(query: ImageListQuery = {}, options?: RequestOptions): Promise<ImagePage> {
    return this.body({ method: 'GET', path: '/v1/media/images', query, options: requestOptions(options) });
  }

  /** One image, as its upload answered it; an unknown, deleted or other store's image throws BlogApiError not_found. */
  async get(imageId: string, options?: RequestOptions): Promise<Image> {
    return this.body({ method: 'GET', path: `/v1/media/images/${id(imageId)}`, options: requestOptions(options) });
  }

  /** Refused with 409 image_in_use while a post shows it. */
  async delete(imageId: string, options?: RequestOptions): Promise<void> {
    await this.send({ method: 'DELETE', path: `/v1/media/images/${id(imageId)}`, options: requestOptions(options) });
  }
}
