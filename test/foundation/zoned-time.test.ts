import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import { compactInTimeZone, isoInTimeZone } from '../../src/message/zoned-time.js';

const ZONES = [
  'UTC',
  'Asia/Singapore',
  'America/New_York',
  'Asia/Kolkata',
  'Australia/Adelaide',
  'Pacific/Chatham',
  'America/St_Johns',
  'Europe/London',
];

describe('isoInTimeZone', () => {
  it('agrees with date-fns-tz on random instants across zones with odd offsets', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let index = 0; index < 3000; index++) {
      const date = new Date(Date.UTC(1990, 0, 1) + Math.floor(random() * 60 * 365 * 86_400_000));
      for (const zone of ZONES) {
        expect(isoInTimeZone(date, zone)).toBe(formatInTimeZone(date, zone, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"));
      }
    }
  });

  it('switches offset exactly at the New York DST changes of 2026', () => {
    expect(isoInTimeZone(new Date('2026-03-08T06:59:59.999Z'), 'America/New_York')).toBe(
      '2026-03-08T01:59:59.999-05:00',
    );
    expect(isoInTimeZone(new Date('2026-03-08T07:00:00.000Z'), 'America/New_York')).toBe(
      '2026-03-08T03:00:00.000-04:00',
    );
    expect(isoInTimeZone(new Date('2026-11-01T05:59:59.000Z'), 'America/New_York')).toBe(
      '2026-11-01T01:59:59.000-04:00',
    );
    expect(isoInTimeZone(new Date('2026-11-01T06:00:00.000Z'), 'America/New_York')).toBe(
      '2026-11-01T01:00:00.000-05:00',
    );
    expect(isoInTimeZone(new Date('2026-01-27T06:30:52.120Z'), 'Asia/Singapore')).toBe('2026-01-27T14:30:52.120+08:00');
  });
});

describe('zoned-time second cache and compact stamps', () => {
  it('keeps milliseconds and zones apart when calls share a second', () => {
    const base = Date.UTC(2026, 10, 22, 12, 30, 52);
    for (const zone of ZONES) {
      for (const ms of [0, 1, 499, 999]) {
        const date = new Date(base + ms);
        expect(isoInTimeZone(date, zone)).toBe(formatInTimeZone(date, zone, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"));
      }
    }
    // Alternating zones and seconds never serves one zone's (or second's) parts to another.
    for (let index = 0; index < 50; index++) {
      const date = new Date(base + index * 1_337);
      const zone = ZONES[index % ZONES.length];
      expect(isoInTimeZone(date, zone)).toBe(formatInTimeZone(date, zone, "yyyy-MM-dd'T'HH:mm:ss.SSSxxx"));
    }
  });

  it('formats yyyyMMdd and yyyyMMdd-HHmmss like date-fns-tz, also before 1970 and across DST', () => {
    const instants = [
      '1969-12-31T23:59:59.500Z',
      '2026-03-08T06:59:59.999Z',
      '2026-03-08T07:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-12-31T16:00:00.000Z',
    ];
    for (const iso of instants) {
      for (const zone of ZONES) {
        const date = new Date(iso);
        expect(compactInTimeZone(date, zone)).toBe(formatInTimeZone(date, zone, 'yyyyMMdd'));
        expect(compactInTimeZone(date, zone, true)).toBe(formatInTimeZone(date, zone, 'yyyyMMdd-HHmmss'));
      }
    }
  });
});
