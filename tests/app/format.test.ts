import { describe, expect, it, vi } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDate,
  formatDecimal,
  formatDuration,
  formatDurationMs,
  formatPercent,
  formatQuantity,
  formatRate,
  UNKNOWN_VALUE,
} from '../../src/app/format';

/** Intl separates some numbers from units with a no-break space; compare with plain spaces. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatCount', () => {
  it('groups thousands the locale’s way and rounds to whole numbers', () => {
    expect(formatCount(12345, 'en-US')).toBe('12,345');
    expect(formatCount(12345, 'de-DE')).toBe('12.345');
    expect(plain(formatCount(1234567, 'fr-FR'))).toBe('1 234 567');
    expect(formatCount(2.6, 'en-US')).toBe('3');
    expect(formatCount(0, 'en-US')).toBe('0');
  });

  it('shows a dash for values that are not numbers', () => {
    expect(formatCount(Number.NaN, 'en-US')).toBe(UNKNOWN_VALUE);
    expect(formatCount(Number.POSITIVE_INFINITY, 'en-US')).toBe(UNKNOWN_VALUE);
  });
});

describe('formatDecimal and formatPercent', () => {
  it('limits and pads decimals', () => {
    expect(formatDecimal(85.64, 1, 0, 'en-US')).toBe('85.6');
    expect(formatDecimal(23, 1, 1, 'en-US')).toBe('23.0');
    expect(formatDecimal(6.7, 1, 0, 'de-DE')).toBe('6,7');
    expect(formatDecimal(Number.NaN, 1)).toBe(UNKNOWN_VALUE);
  });

  it('writes fractions as whole percentages', () => {
    expect(formatPercent(0.28, 'en-US')).toBe('28%');
    expect(formatPercent(0.2849, 'en-US')).toBe('28%');
    expect(formatPercent(1, 'en-US')).toBe('100%');
    expect(plain(formatPercent(0.28, 'fr-FR'))).toBe('28 %');
  });
});

describe('formatBytes', () => {
  it('uses decimal units with three significant digits', () => {
    expect(formatBytes(0, 'en-US')).toBe('0 B');
    expect(formatBytes(512, 'en-US')).toBe('512 B');
    expect(formatBytes(1000, 'en-US')).toBe('1 kB');
    expect(formatBytes(1_234_567, 'en-US')).toBe('1.23 MB');
    expect(formatBytes(23_000_000, 'en-US')).toBe('23 MB');
    expect(formatBytes(123_456_789, 'en-US')).toBe('123 MB');
    expect(formatBytes(2.5e9, 'en-US')).toBe('2.5 GB');
  });

  it('moves to the next unit instead of printing 1,000 of one', () => {
    expect(formatBytes(999_999, 'en-US')).toBe('1 MB');
    expect(formatBytes(999_499, 'en-US')).toBe('999 kB');
  });

  it('follows the locale’s decimal separator', () => {
    expect(plain(formatBytes(2.5e9, 'de-DE'))).toBe('2,5 GB');
  });

  it('shows negative sizes as zero and unknown ones as a dash', () => {
    expect(formatBytes(-5, 'en-US')).toBe('0 B');
    expect(formatBytes(Number.NaN, 'en-US')).toBe(UNKNOWN_VALUE);
  });
});

describe('formatDuration', () => {
  it('writes at most two units, rounding to whole seconds', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(0.4)).toBe('0 s');
    expect(formatDuration(44.6)).toBe('45 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(185)).toBe('3 min 5 s');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(3720)).toBe('1 h 2 min');
    expect(formatDuration(3599.6)).toBe('1 h');
  });

  it('rounds long durations to whole minutes', () => {
    expect(formatDuration(3600 + 29)).toBe('1 h');
    expect(formatDuration(3600 + 31)).toBe('1 h 1 min');
    expect(formatDuration(26 * 3600 + 3 * 60, 'en-US')).toBe('26 h 3 min');
  });

  it('shows negative durations as zero and unknown ones as a dash', () => {
    expect(formatDuration(-3)).toBe('0 s');
    expect(formatDuration(Number.NaN)).toBe(UNKNOWN_VALUE);
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe(UNKNOWN_VALUE);
  });

  it('takes milliseconds through formatDurationMs', () => {
    expect(formatDurationMs(185_000)).toBe('3 min 5 s');
  });
});

describe('formatRate', () => {
  it('writes items per second with at most one decimal', () => {
    expect(formatRate(12.34, '', 'en-US')).toBe('12.3/s');
    expect(formatRate(4.1, 'MB', 'en-US')).toBe('4.1 MB/s');
    expect(formatRate(1234.5, '', 'en-US')).toBe('1,230/s');
    expect(formatRate(1, '', 'en-US')).toBe('1/s');
    expect(formatRate(0, '', 'en-US')).toBe('0/s');
  });

  it('switches to per minute below one per second', () => {
    expect(formatRate(0.25, '', 'en-US')).toBe('15/min');
    expect(formatRate(0.01, 'summaries', 'en-US')).toBe('0.6 summaries/min');
  });

  it('follows the locale and rejects meaningless rates', () => {
    expect(formatRate(2.5, '', 'de-DE')).toBe('2,5/s');
    expect(formatRate(-1)).toBe(UNKNOWN_VALUE);
    expect(formatRate(Number.NaN)).toBe(UNKNOWN_VALUE);
  });
});

describe('formatDate', () => {
  const ISO = '2025-03-03T14:05:00Z';

  it('is deterministic for a given locale and time zone', () => {
    expect(formatDate(ISO, { locale: 'en-US', timeZone: 'UTC' })).toBe('Mar 3, 2025, 2:05 PM');
    expect(formatDate(ISO, { locale: 'en-GB', timeZone: 'UTC' })).toBe('3 Mar 2025, 14:05');
    expect(formatDate(ISO, { locale: 'de-DE', timeZone: 'UTC' })).toBe('03.03.2025, 14:05');
  });

  it('accepts milliseconds and Date objects, and applies the time zone', () => {
    const ms = Date.parse(ISO);
    expect(formatDate(ms, { locale: 'en-GB', timeZone: 'Asia/Tokyo' })).toBe('3 Mar 2025, 23:05');
    expect(formatDate(new Date(ms), { locale: 'en-GB', timeZone: 'UTC', dateOnly: true })).toBe('3 Mar 2025');
  });

  it('shows a dash for an invalid date', () => {
    expect(formatDate('not a date', { locale: 'en-US' })).toBe(UNKNOWN_VALUE);
  });

  it('makes one formatter per set of options, however many dates it formats (a SPY on Intl)', () => {
    const Original = Intl.DateTimeFormat;
    const made = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (
      ...args: ConstructorParameters<typeof Intl.DateTimeFormat>
    ) {
      return new Original(...args);
    } as unknown as typeof Intl.DateTimeFormat);
    try {
      const options = { locale: 'fr-FR', timeZone: 'Europe/Paris' };
      const dates = [0, 1, 2].map((day) => formatDate(Date.parse(ISO) + day * 86_400_000, options));
      expect(dates).toEqual(['3 mars 2025, 15:05', '4 mars 2025, 15:05', '5 mars 2025, 15:05']);
      expect(made).toHaveBeenCalledTimes(1);
      formatDate(ISO, { ...options, dateOnly: true });
      expect(made).toHaveBeenCalledTimes(2);
    } finally {
      made.mockRestore();
    }
  });
});

describe('formatQuantity', () => {
  it('pluralises the noun', () => {
    expect(formatQuantity(1, 'document', undefined, 'en-US')).toBe('1 document');
    expect(formatQuantity(1200, 'document', undefined, 'en-US')).toBe('1,200 documents');
    expect(formatQuantity(2, 'child', 'children', 'en-US')).toBe('2 children');
  });
});
