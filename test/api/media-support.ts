// Shared by the media test files: multipart bodies built by hand, upload/delete shortcuts and
// reading stored files back through the public route.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { TestApp } from '../helpers/test-app.js';
import { solidImage, type Rgb } from '../helpers/image-fixtures.js';

export interface FormPart {
  name: string;
  /** Present → a file part. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** multipart/form-data per RFC 7578, CRLF line ends, a random boundary. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----media-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function upload(
  t: TestApp,
  key: string,
  data: Buffer,
  opts: { filename?: string; field?: string; contentType?: string } = {},
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipartBody([
    {
      name: opts.field ?? 'file',
      filename: opts.filename ?? 'upload.bin',
      contentType: opts.contentType ?? 'application/octet-stream',
      data,
    },
  ]);
  return t.request({ method: 'POST', url: '/v1/media/images', key, payload, headers: { 'content-type': contentType } });
}

export function deleteImage(t: TestApp, key: string, id: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'DELETE', url: `/v1/media/images/${id}`, key });
}

/** GET of the image's path through the app (no key: the file route is public). */
export function fetchFile(t: TestApp, path: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url: path });
}

/** The stored bytes of an uploaded image, read back through its public path. */
export async function storedBytes(t: TestApp, image: { path: string }): Promise<Buffer> {
  const res = await fetchFile(t, image.path);
  assert.equal(res.statusCode, 200, res.body);
  return res.rawPayload;
}

/** A small JPEG whose bytes differ per call (distinct content defeats de-duplication). */
export async function uniqueJpeg(colour: Rgb = { r: 10, g: 120, b: 200 }, size = 16): Promise<Buffer> {
  const jpeg = await solidImage(size, size, colour).jpeg().toBuffer();
  // A comment segment right after SOI changes the bytes (and the SHA-256), not the picture.
  const comment = Buffer.from(randomBytes(8).toString('hex'));
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, comment.length + 2]), comment]);
  return Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]);
}

export async function metadataOf(data: Buffer) {
  return sharp(data).metadata();
}

/** The JSON body of a 200/201 upload, checked field by field. */
export function assertImageObject(
  res: LightMyRequestResponse,
  status: 200 | 201,
  expected: { contentType: string; width: number; height: number; handle: string },
) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), [
    'basename',
    'bytes',
    'content_type',
    'height',
    'id',
    'path',
    'url',
    'width',
  ]);
  assert.match(body.id, /^img_[a-z0-9]{24}$/);
  const ext = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' }[
    expected.contentType
  ];
  assert.match(body.basename, new RegExp(`^[a-z0-9]{24}\\.${ext}$`));
  assert.equal(body.path, `/media/${expected.handle}/${body.basename}`);
  assert.equal(body.url, `http://blog.test${body.path}`);
  assert.equal(body.content_type, expected.contentType);
  assert.equal(body.width, expected.width);
  assert.equal(body.height, expected.height);
  assert.equal(typeof body.bytes, 'number');
  assert.equal(res.headers['cache-control'], 'no-store');
  return body as UploadedImage;
}

/** The contract's image object, as an upload, the image list and the image read answer it. */
export interface UploadedImage {
  id: string;
  basename: string;
  path: string;
  url: string;
  content_type: string;
  width: number;
  height: number;
  bytes: number;
}
