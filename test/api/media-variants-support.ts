// Shared by the variant test files: a photo-like upload wider than most variant widths,
// variant requests, and reading the variant histogram through GET /metrics.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { TestApp } from '../helpers/test-app.js';
import { twoToneImage } from '../helpers/image-fixtures.js';
import { upload } from './media-support.js';

export interface StoredImage {
  id: string;
  basename: string;
  path: string;
  url: string;
  width: number;
  height: number;
  bytes: number;
}

let sequence = 0;

/** A JPEG of `width`×`height` whose bytes differ per call (a JPEG comment), uploaded; the image object. */
export async function uploadPhoto(t: TestApp, key: string, width = 1500, height = 1000): Promise<StoredImage> {
  const jpeg = await twoToneImage(width, height).jpeg({ quality: 80 }).toBuffer();
  const text = Buffer.from(`variant-test-${process.pid}-${++sequence}-${Math.random()}`);
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, 0, text.length + 2]), text]);
  const res = await upload(t, key, Buffer.concat([jpeg.subarray(0, 2), com, jpeg.subarray(2)]));
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

export function getVariant(
  t: Pick<TestApp, 'app'>,
  path: string,
  query: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `${path}?${query}`, headers });
}

/** Variants made so far by this app (every outcome), from blog_api_image_variant_seconds_count. */
export async function variantsMade(t: Pick<TestApp, 'app'>): Promise<number> {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  return text
    .split('\n')
    .filter((line) => line.startsWith('blog_api_image_variant_seconds_count'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

export async function imageMeta(data: Buffer) {
  const meta = await sharp(data).metadata();
  return { format: meta.format, compression: meta.compression, width: meta.width, height: meta.height };
}
