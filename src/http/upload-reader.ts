// Reads the one `file` part of a multipart upload as a stream, counting bytes against the
// store's limit so an oversized file is refused as soon as it crosses the limit, never held
// whole; hashes on the way (de-duplication is by the SHA-256 of the uploaded bytes).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ApiError, detail, type ErrorDetail } from '../lib/api-error.js';
import { systemTimers, type Timers } from '../lib/timers.js';
import { FILE_FIELD, type UploadedFile } from '../modules/media/index.js';

/** The part of @fastify/multipart's request API this reader uses. */
export type UploadPart =
  { type: 'file'; fieldname: string; file: Readable & { truncated?: boolean } } | { type: 'field'; fieldname: string };

export interface MultipartSource {
  isMultipart(): boolean;
  parts(options?: { limits?: { fileSize?: number } }): AsyncIterableIterator<UploadPart>;
}

export interface UploadReadOptions {
  maxBytes: number;
  /** No byte received for this long → the upload is abandoned. */
  idleTimeoutMs: number;
  /** The whole body must arrive within this time, however steadily it trickles; null: no total limit. */
  totalTimeoutMs: number | null;
  /** What the two limits wait on (default: the system's; tests move time by hand). */
  timers?: Timers;
}

// Errors raised while the body is still arriving leave unread bytes on the connection; closing
// it after the answer stops the client from pushing the rest of a large body for nothing.
const CLOSE = { Connection: 'close' };

const invalid = (...details: ErrorDetail[]) => new ApiError('validation_failed', details, CLOSE);

export async function readImageUpload(source: MultipartSource, options: UploadReadOptions): Promise<UploadedFile> {
  if (!source.isMultipart())
    throw new ApiError('validation_failed', [detail('Content-Type', 'must be multipart/form-data')]);

  let current: Readable | null = null;
  let fail: (err: ApiError) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const abort = (issue: string) => {
    current?.destroy();
    fail(invalid(detail(FILE_FIELD, issue)));
  };
  const timers = options.timers ?? systemTimers;
  let idle: unknown;
  let settled = false;
  const touch = () => {
    if (settled) return;
    timers.clearTimeout(idle);
    idle = timers.setTimeout(
      () => abort(`was not received completely: no data arrived for ${options.idleTimeoutMs / 1000} seconds`),
      options.idleTimeoutMs,
    );
  };
  const { totalTimeoutMs } = options;
  const total =
    totalTimeoutMs === null
      ? undefined
      : timers.setTimeout(
          () => abort(`was not received completely within ${totalTimeoutMs / 1000} seconds`),
          totalTimeoutMs,
        );

  const reading = readParts(source, options.maxBytes, touch, (stream) => (current = stream));
  // After a timeout the reading is left behind; it ends when the connection closes.
  reading.catch(() => undefined);
  touch();
  try {
    return await Promise.race([reading, stopped]);
  } catch (err) {
    throw toUploadError(err);
  } finally {
    settled = true;
    timers.clearTimeout(idle);
    timers.clearTimeout(total);
  }
}

async function readParts(
  source: MultipartSource,
  maxBytes: number,
  touch: () => void,
  track: (stream: Readable | null) => void,
): Promise<UploadedFile> {
  let upload: UploadedFile | null = null;
  // busboy's own cap sits one byte above the limit: it stops buffering there, and the count
  // below sees the excess and refuses.
  for await (const part of source.parts({ limits: { fileSize: maxBytes + 1 } })) {
    touch();
    if (part.type === 'field') {
      if (part.fieldname === FILE_FIELD)
        throw invalid(detail(FILE_FIELD, 'must be sent as a file part (with a filename), not as text'));
      throw invalid(detail(part.fieldname, 'is not a recognised field'));
    }
    if (part.fieldname !== FILE_FIELD) {
      part.file.destroy();
      throw invalid(detail(FILE_FIELD, `is required: send the image in the form field named "${FILE_FIELD}"`));
    }
    if (upload) {
      part.file.destroy();
      throw invalid(detail(FILE_FIELD, 'must be sent once: one image per request'));
    }
    track(part.file);
    upload = await readFile(part.file, maxBytes, touch);
    track(null);
  }
  if (!upload) throw new ApiError('validation_failed', [detail(FILE_FIELD, 'is required')]);
  return upload;
}

async function readFile(
  file: Readable & { truncated?: boolean },
  maxBytes: number,
  touch: () => void,
): Promise<UploadedFile> {
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    touch();
    bytes += chunk.length;
    if (bytes > maxBytes || file.truncated) {
      // Leaving the loop destroys the stream: reading stops here, whatever size was announced.
      throw new ApiError(
        'image_too_large',
        [detail(FILE_FIELD, `is larger than ${maxBytes} bytes (limits.image_max_bytes)`)],
        CLOSE,
      );
    }
    hash.update(chunk);
    chunks.push(chunk);
  }
  if (file.truncated) {
    throw new ApiError(
      'image_too_large',
      [detail(FILE_FIELD, `is larger than ${maxBytes} bytes (limits.image_max_bytes)`)],
      CLOSE,
    );
  }
  if (bytes === 0) throw invalid(detail(FILE_FIELD, 'is empty'));
  return { data: Buffer.concat(chunks, bytes), sha256: hash.digest('hex') };
}

/** Multipart parser failures as API errors (the API has no 400: docs/api-behaviour.md). */
function toUploadError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; message?: string };
  switch (e?.code) {
    case 'FST_FILES_LIMIT':
      return invalid(detail(FILE_FIELD, 'must be sent once: one image per request'));
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalid(detail('body', `has too many form fields: send only "${FILE_FIELD}"`));
    case 'FST_PROTO_VIOLATION':
      return invalid(detail('body', 'has a form field name that is not allowed'));
    case 'FST_MP_PREMATURE_CLOSE':
      return invalid(detail(FILE_FIELD, 'was not received completely: the upload was interrupted'));
    case 'FST_REQ_FILE_TOO_LARGE':
      return new ApiError('image_too_large', [detail(FILE_FIELD, 'is larger than limits.image_max_bytes')], CLOSE);
  }
  if (/boundary/i.test(e?.message ?? ''))
    return invalid(detail('Content-Type', 'must be multipart/form-data with a boundary'));
  return invalid(detail('body', 'is not valid multipart/form-data'));
}
