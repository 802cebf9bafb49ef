// Upload timing and the image decode budget (MEDIA_UPLOAD_* and MEDIA_* variables), parsed
// beside the rest of the configuration so that every problem is listed together at start.
import { availableParallelism } from 'node:os';
import { integerVariable, type Environment } from './env-schema.js';

export interface MediaSettings {
  /** An upload that sends no byte for this long is abandoned (a stalled client). */
  uploadIdleTimeoutMs: number;
  /**
   * The whole upload body must arrive within this time; null (the default): no total limit, an
   * upload only has to keep a minimum pace (HTTP_UPLOAD_MIN_BYTES, see docs/operations.md).
   */
  uploadTotalTimeoutMs: number | null;
  /** Frames x canvas pixels one animated image may cost (DecodeBudget.maxAnimationPixels). */
  maxAnimationPixels: number;
  /** Seconds libvips may spend on one image (DecodeBudget.timeoutSeconds). */
  processingTimeoutSeconds: number;
  /** Images decoded and re-encoded at once by this process; always below the thread pool's size. */
  processingConcurrency: number;
  /** The longest an upload waits for a processing turn before it is refused. */
  processingWaitMs: number;
}

const UPLOAD_IDLE_TIMEOUT_MS = 30_000;

function seconds(
  env: Environment,
  name: 'MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS' | 'MEDIA_UPLOAD_TIMEOUT_SECONDS',
  fallbackMs: number,
  problems: string[],
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 3600) {
    problems.push(`${name} must be an integer number of seconds from 1 to 3600 (got "${raw}")`);
    return fallbackMs;
  }
  return value * 1000;
}

/**
 * MEDIA_PROCESSING_CONCURRENCY, or half the cores by default: each image is processed by one
 * libvips thread (image-processor.ts), so image work leaves the other cores to serving. Either
 * way at most the thread pool's size less one, so a file read always finds a free thread.
 */
function processingConcurrency(env: Environment, problems: string[]): number {
  const threads = integerVariable(env, 'UV_THREADPOOL_SIZE', problems);
  const most = threads - 1;
  const raw = env.MEDIA_PROCESSING_CONCURRENCY;
  const fallback = Math.max(1, Math.min(Math.floor(availableParallelism() / 2), most));
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > most) {
    problems.push(
      `MEDIA_PROCESSING_CONCURRENCY must be an integer from 1 to ${most} (UV_THREADPOOL_SIZE − 1) (got "${raw}")`,
    );
    return fallback;
  }
  return value;
}

/** Parses the media settings; problems are appended to `problems`. */
export function parseMediaSettings(env: Environment, problems: string[]): MediaSettings {
  return {
    uploadIdleTimeoutMs: seconds(env, 'MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS', UPLOAD_IDLE_TIMEOUT_MS, problems),
    // A slow link must not lose a large upload to a total limit; a body trickling just fast
    // enough to dodge the idle timeout is cut by the server's minimum upload pace instead.
    uploadTotalTimeoutMs: env.MEDIA_UPLOAD_TIMEOUT_SECONDS
      ? seconds(env, 'MEDIA_UPLOAD_TIMEOUT_SECONDS', 0, problems)
      : null,
    maxAnimationPixels: integerVariable(env, 'MEDIA_MAX_ANIMATION_PIXELS', problems),
    processingTimeoutSeconds: integerVariable(env, 'MEDIA_PROCESSING_TIMEOUT_SECONDS', problems),
    processingConcurrency: processingConcurrency(env, problems),
    processingWaitMs: integerVariable(env, 'MEDIA_PROCESSING_WAIT_SECONDS', problems) * 1000,
  };
}
