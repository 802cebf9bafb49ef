// Times are stored as UTC epoch milliseconds and written with an offset at the edge.

const OFFSET_PATTERN = /^([+-])(\d{2}):(\d{2})$/;
/** ISO 8601 date-time that must carry an offset (Z or ±hh:mm); a date alone or a local time is refused. */
export const OFFSET_DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE_TIME_FIELDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export function isOffsetDateTime(value: string): boolean {
  return OFFSET_DATE_TIME_PATTERN.test(value) && isCalendarDateTime(value) && !Number.isNaN(Date.parse(value));
}

/**
 * Whether the date and time exist on the calendar. Date.parse rolls 2026-02-30 over into March
 * and reads 24:00 as the next midnight; a client sending either most likely made a mistake, so
 * both are refused (RFC 3339 allows neither).
 */
function isCalendarDateTime(value: string): boolean {
  const m = DATE_TIME_FIELDS.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map((field) => Number(field ?? 0));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return daysInMonth !== undefined && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59;
}

/** Parses a validated offset date-time into epoch ms, or null when it is not one. */
export function parseOffsetDateTime(value: string): number | null {
  return isOffsetDateTime(value) ? Date.parse(value) : null;
}

/** Parsed offsets: a listed page formats three times per post with the same one or two offsets. */
const parsedOffsets = new Map<string, number>();

export function offsetMinutes(offset: string): number {
  const known = parsedOffsets.get(offset);
  if (known !== undefined) return known;
  const m = OFFSET_PATTERN.exec(offset);
  if (!m) throw new Error(`Invalid UTC offset: ${offset}`);
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  if (parsedOffsets.size < 1000) parsedOffsets.set(offset, minutes);
  return minutes;
}

export function isValidOffset(offset: string): boolean {
  const m = OFFSET_PATTERN.exec(offset);
  return !!m && Number(m[2]) <= 14 && Number(m[3]) < 60;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Writes epoch ms as `YYYY-MM-DDTHH:mm:ss±hh:mm` in the given offset (one-second precision). */
export function formatWithOffset(epochMs: number, offset: string): string {
  const shifted = new Date(epochMs + offsetMinutes(offset) * MINUTE_MS);
  return (
    `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}` +
    `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}${offset}`
  );
}

export function formatNullable(epochMs: number | null | undefined, offset: string): string | null {
  return epochMs === null || epochMs === undefined ? null : formatWithOffset(epochMs, offset);
}

/** Daily quotas follow the Taipei calendar day (UTC+8, no daylight saving). */
export const TAIPEI_OFFSET = '+08:00';
const TAIPEI_MS = 8 * 60 * MINUTE_MS;

/** The Taipei calendar day of an instant, as `YYYY-MM-DD`. */
export function taipeiDay(epochMs: number): string {
  return new Date(epochMs + TAIPEI_MS).toISOString().slice(0, 10);
}

/** The next Taipei midnight after an instant, as epoch ms. */
export function nextTaipeiMidnight(epochMs: number): number {
  const startOfDay = Math.floor((epochMs + TAIPEI_MS) / DAY_MS) * DAY_MS - TAIPEI_MS;
  return startOfDay + DAY_MS;
}
