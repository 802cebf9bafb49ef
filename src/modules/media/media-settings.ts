// Upload timing, from optional environment variables validated at start like the rest of the
// configuration (a bad value stops the process with a clear message).
import { ConfigError } from '../../config/config.js';
import { DEFAULT_DECODE_BUDGET } from './image-types.js';

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
}

export const MEDIA_SETTING_DEFAULTS: Readonly<MediaSettings> = Object.freeze({
  uploadIdleTimeoutMs: 30_000,
  // A slow link must not lose a large upload to a total limit; a body trickling just fast enough
  // to dodge the idle timeout is cut by the server's minimum upload pace instead.
  uploadTotalTimeoutMs: null,
  maxAnimationPixels: DEFAULT_DECODE_BUDGET.maxAnimationPixels,
  processingTimeoutSeconds: DEFAULT_DECODE_BUDGET.timeoutSeconds,
});

function seconds(env: NodeJS.ProcessEnv, name: string, fallbackMs: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 3600) {
    problems.push(`${name} must be an integer number of seconds from 1 to 3600 (got "${raw}")`);
    return fallbackMs;
  }
  return value * 1000;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    problems.push(`${name} must be an integer from 1 to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

export function mediaSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): MediaSettings {
  const problems: string[] = [];
  const settings = {
    uploadIdleTimeoutMs: seconds(env, 'MEDIA_UPLOAD_IDLE_TIMEOUT_SECONDS', MEDIA_SETTING_DEFAULTS.uploadIdleTimeoutMs, problems),
    uploadTotalTimeoutMs: env.MEDIA_UPLOAD_TIMEOUT_SECONDS ? seconds(env, 'MEDIA_UPLOAD_TIMEOUT_SECONDS', 0, problems) : null,
    maxAnimationPixels: integer(env, 'MEDIA_MAX_ANIMATION_PIXELS', MEDIA_SETTING_DEFAULTS.maxAnimationPixels, 1_000_000_000, problems),
    processingTimeoutSeconds: integer(env, 'MEDIA_PROCESSING_TIMEOUT_SECONDS', MEDIA_SETTING_DEFAULTS.processingTimeoutSeconds, 3600, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}
