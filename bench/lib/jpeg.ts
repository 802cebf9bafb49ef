// A 12-megapixel (4000×3000) photo-like JPEG made once per run with sharp (noise drawn at half
// size, then scaled up: about 6–7 MB at quality 92, like a camera photo; the same recipe as
// bench/image-upload.ts), and a multipart body builder that gives every upload unique bytes (a
// JPEG comment segment right after the start-of-image marker), so each request is a new image,
// not a de-duplicated one.
import sharp from 'sharp';

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

export async function makePhotoJpeg(width = PHOTO_WIDTH, height = PHOTO_HEIGHT): Promise<Buffer> {
  const half = { width: Math.round(width / 2), height: Math.round(height / 2) };
  const noise = await sharp({
    create: {
      ...half,
      channels: 3,
      background: { r: 120, g: 140, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(noise.data, { raw: noise.info }).resize(width, height).jpeg({ quality: 92 }).toBuffer();
}

export const BOUNDARY = '----blogbenchBoundary7MA4YWxkTrZu0gW';

/** multipart/form-data with one `file` part holding the JPEG plus a unique comment. */
export function uploadBodyFactory(jpeg: Buffer): (unique: string) => Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const soi = jpeg.subarray(0, 2);
  const rest = jpeg.subarray(2);
  return (unique: string) => {
    const text = Buffer.from(`bench ${unique}`);
    const marker = Buffer.from([0xff, 0xfe, (text.length + 2) >> 8, (text.length + 2) & 0xff]);
    return Buffer.concat([head, soi, marker, text, rest, tail]);
  };
}
