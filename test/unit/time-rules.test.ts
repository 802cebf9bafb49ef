// Time rules (docs/api-behaviour.md: ISO 8601 with a time-zone offset; daily quotas on the
// Taipei day), one row per case.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatWithOffset,
  isOffsetDateTime,
  isValidOffset,
  nextTaipeiMidnight,
  parseOffsetDateTime,
  taipeiDay,
} from '../../src/lib/time.js';

describe('time values sent by a client', () => {
  // [value, epoch ms it means, or null when it is refused]
  const table: Array<[string, number | null, string]> = [
    ['2026-09-14T10:00:00+08:00', Date.UTC(2026, 8, 14, 2), 'offset form'],
    ['2026-09-14T02:00:00Z', Date.UTC(2026, 8, 14, 2), 'Z is the zero offset'],
    ['2026-09-14T10:00+08:00', Date.UTC(2026, 8, 14, 2), 'seconds may be left out'],
    ['2026-09-14T10:00:00.5+08:00', Date.UTC(2026, 8, 14, 2, 0, 0, 500), 'fractions of a second'],
    ['2026-09-13T21:00:00-05:00', Date.UTC(2026, 8, 14, 2), 'negative offset'],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29), 'leap day of a leap year'],
    ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29), 'leap day of a year divisible by 400'],
    ['2026-12-31T23:59:59+14:00', Date.UTC(2026, 11, 31, 9, 59, 59), 'last second of the year, widest offset'],
    ['2026-09-14T10:00:00', null, 'no offset: a local time'],
    ['2026-09-14', null, 'a date alone'],
    ['2026-09-14 10:00:00+08:00', null, 'a space instead of T'],
    ['2026-09-14T10:00:00+0800', null, 'offset without a colon'],
    ['2026-09-14T10:00:00+08', null, 'offset without minutes'],
    ['tomorrow', null, 'not a time'],
    ['', null, 'empty'],
    ['2026-02-30T10:00:00+08:00', null, 'February 30 does not exist'],
    ['2025-02-29T00:00:00Z', null, 'no leap day in 2025'],
    ['1900-02-29T00:00:00Z', null, 'no leap day in a century year not divisible by 400'],
    ['2026-04-31T00:00:00Z', null, 'April has 30 days'],
    ['2026-13-01T00:00:00Z', null, 'month 13'],
    ['2026-00-01T00:00:00Z', null, 'month 0'],
    ['2026-01-00T00:00:00Z', null, 'day 0'],
    ['2026-01-01T24:00:00Z', null, 'hour 24'],
    ['2026-01-01T23:60:00Z', null, 'minute 60'],
    ['2026-01-01T23:59:60Z', null, 'second 60'],
    ['2026-09-14T10:00:00+25:00', null, 'offset beyond a day'],
  ];
  for (const [value, epochMs, why] of table) {
    it(`${JSON.stringify(value)}: ${epochMs === null ? 'refused' : 'accepted'} (${why})`, () => {
      assert.equal(isOffsetDateTime(value), epochMs !== null);
      assert.equal(parseOffsetDateTime(value), epochMs);
    });
  }
});

describe('time values written by the service', () => {
  const instant = Date.UTC(2026, 8, 14, 2, 3, 4, 999);
  const table: Array<[string, string]> = [
    ['+08:00', '2026-09-14T10:03:04+08:00'],
    ['+00:00', '2026-09-14T02:03:04+00:00'],
    ['-05:00', '2026-09-13T21:03:04-05:00'],
    ['+05:45', '2026-09-14T07:48:04+05:45'],
    ['-09:30', '2026-09-13T16:33:04-09:30'],
    ['+14:00', '2026-09-14T16:03:04+14:00'],
  ];
  for (const [offset, written] of table) {
    it(`in ${offset}: ${written}, which reads back as the same second`, () => {
      assert.equal(formatWithOffset(instant, offset), written);
      assert.equal(parseOffsetDateTime(written), Math.floor(instant / 1000) * 1000);
    });
  }

  const offsets: Array<[string, boolean]> = [
    ['+08:00', true],
    ['-12:00', true],
    ['+14:00', true],
    ['+15:00', false],
    ['+08:60', false],
    ['08:00', false],
    ['+8:00', false],
    ['Z', false],
  ];
  for (const [offset, valid] of offsets) {
    it(`store offset ${offset} is ${valid ? 'valid' : 'refused'}`, () => assert.equal(isValidOffset(offset), valid));
  }
});

describe('the Taipei day that daily quotas count on', () => {
  // [instant, its Taipei day, the next Taipei midnight]
  const table: Array<[string, string, string]> = [
    ['2026-09-14T15:59:59.999Z', '2026-09-14', '2026-09-14T16:00:00.000Z'],
    ['2026-09-14T16:00:00.000Z', '2026-09-15', '2026-09-15T16:00:00.000Z'],
    ['2026-09-15T00:00:00.000Z', '2026-09-15', '2026-09-15T16:00:00.000Z'],
    ['2026-12-31T16:00:00.000Z', '2027-01-01', '2027-01-01T16:00:00.000Z'],
    ['2028-02-28T16:00:00.000Z', '2028-02-29', '2028-02-29T16:00:00.000Z'],
  ];
  for (const [instant, day, midnight] of table) {
    it(`${instant} is ${day} in Taipei; the day ends at ${midnight}`, () => {
      assert.equal(taipeiDay(Date.parse(instant)), day);
      assert.equal(new Date(nextTaipeiMidnight(Date.parse(instant))).toISOString(), midnight);
    });
  }
});
