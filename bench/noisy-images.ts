// The costliest upload a default store allows, for store A of the noisy-neighbour bench: a PNG
// of one colour just inside `image_max_pixels` (40,000,000: 6300 × 6300 = 39.7 MP) compresses to
// about 100 KB, far inside `image_max_bytes`, yet decoding it, scaling it to 2048 px and
// re-encoding it costs seconds of CPU and some 120 MB of pixels.
import { crc32 } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

export const CANVAS_SIDE = 6300;

export function costliestPng(): Promise<Buffer> {
  return sharp({
    create: { width: CANVAS_SIDE, height: CANVAS_SIDE, channels: 3, background: { r: 200, g: 210, b: 220 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** The PNG with a random tEXt chunk after its header: other bytes, so no upload is a repeat. */
function distinct(png: Buffer): Buffer {
  const data = Buffer.from(`Comment\0${randomBytes(12).toString('hex')}`, 'latin1');
  const typed = Buffer.concat([Buffer.from('tEXt', 'latin1'), data]);
  const chunk = Buffer.alloc(4 + typed.length + 4);
  chunk.writeUInt32BE(data.length, 0);
  typed.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typed), 4 + typed.length);
  // Signature (8 bytes) and IHDR (25 bytes) first.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

/** Uploads one distinct copy; counts the answer in `statuses`; returns the ms a 429 asks to wait. */
export async function uploadPng(
  apiUrl: string,
  key: string,
  png: Buffer,
  statuses: Record<string, number>,
): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(distinct(png))], { type: 'image/png' }), 'canvas.png');
  const what = `${CANVAS_SIDE}x${CANVAS_SIDE} PNG upload`;
  try {
    const res = await fetch(`${apiUrl}/v1/media/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    const label = `${what} ${res.status}${body?.error?.code ? ` ${body.error.code}` : ''}`;
    statuses[label] = (statuses[label] ?? 0) + 1;
    return res.status === 429 ? Number(res.headers.get('retry-after') ?? 1) * 1000 : 0;
  } catch {
    statuses[`${what} failed`] = (statuses[`${what} failed`] ?? 0) + 1;
    return 0;
  }
}
