/**
 * How the UI writes numbers, sizes, durations, rates and dates. Every function takes an optional BCP 47
 * `locale` (default: the browser's) so output is locale-aware in the app and deterministic in tests.
 * Sizes use decimal units (1 MB = 1,000,000 bytes), like the model sizes in src/models/embed/embedding-presets.ts.
 */

/** Bytes in a kilobyte (decimal, as storage quotas and download sizes are usually shown). */
export const BYTES_PER_KB = 1000;

/** What the formatters print for a value that is not a finite number (e.g. an unknown total). */
export const UNKNOWN_VALUE = '—';

const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;
const MS_PER_SECOND = 1000;

/** Significant digits of sizes and rates: "1.23 MB", "12.3 MB", "123 MB". */
const SIGNIFICANT_DIGITS = 3;

/** Below one item per second, a rate reads better per minute ("15/min" rather than "0.25/s"). */
const PER_MINUTE_BELOW = 1;

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Intl.NumberFormat is costly to build and progress views format many numbers a second: keep them. */
function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * A whole count with grouping: 12345 → "12,345" (en-US), "12.345" (de-DE). Rounds to the nearest integer.
 * @returns "—" for NaN or infinities.
 */
export function formatCount(n: number, locale?: string): string {
  if (!Number.isFinite(n)) return UNKNOWN_VALUE;
  return numberFormat(locale, { maximumFractionDigits: 0 }).format(n);
}

/**
 * A number with at most `maxFractionDigits` decimals and at least `minFractionDigits` (default 0):
 * formatDecimal(85.64, 1) → "85.6"; formatDecimal(23, 1, 1) → "23.0".
 */
export function formatDecimal(
  n: number,
  maxFractionDigits: number,
  minFractionDigits = 0,
  locale?: string,
): string {
  if (!Number.isFinite(n)) return UNKNOWN_VALUE;
  return numberFormat(locale, {
    minimumFractionDigits: minFractionDigits,
    maximumFractionDigits: maxFractionDigits,
  }).format(n);
}

/** A fraction as a whole percentage: 0.2849 → "28%". */
export function formatPercent(fraction: number, locale?: string): string {
  if (!Number.isFinite(fraction)) return UNKNOWN_VALUE;
  return numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(fraction);
}

/**
 * A size in bytes with a decimal unit and three significant digits: 512 → "512 B", 1234567 → "1.23 MB",
 * 2.5e9 → "2.5 GB" (en-US). Negative sizes are shown as 0.
 */
export function formatBytes(bytes: number, locale?: string): string {
  if (!Number.isFinite(bytes)) return UNKNOWN_VALUE;
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= BYTES_PER_KB && unit < BYTE_UNITS.length - 1) {
    value /= BYTES_PER_KB;
    unit++;
  }
  // 999,999 bytes would otherwise round to "1,000 kB".
  if (unit < BYTE_UNITS.length - 1 && Number(value.toPrecision(SIGNIFICANT_DIGITS)) >= BYTES_PER_KB) {
    value /= BYTES_PER_KB;
    unit++;
  }
  if (unit === 0) return `${formatCount(value, locale)} B`;
  return numberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: 'short',
    maximumSignificantDigits: SIGNIFICANT_DIGITS,
  }).format(value);
}

/**
 * A duration in seconds, at most two units: 0.4 → "0 s", 45 → "45 s", 185 → "3 min 5 s",
 * 3720 → "1 h 2 min". Rounds to whole seconds; negative durations are shown as 0.
 */
export function formatDuration(seconds: number, locale?: string): string {
  if (!Number.isFinite(seconds)) return UNKNOWN_VALUE;
  const total = Math.max(0, Math.round(seconds));
  if (total < SECONDS_PER_MINUTE) return `${formatCount(total, locale)} s`;
  if (total < SECONDS_PER_HOUR) {
    const minutes = Math.floor(total / SECONDS_PER_MINUTE);
    const rest = total % SECONDS_PER_MINUTE;
    return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  // Whole minutes once past an hour: seconds would only add noise to an estimate that long.
  const minutesTotal = Math.round(total / SECONDS_PER_MINUTE);
  const hours = Math.floor(minutesTotal / SECONDS_PER_MINUTE);
  const minutes = minutesTotal % SECONDS_PER_MINUTE;
  return minutes === 0 ? `${formatCount(hours, locale)} h` : `${formatCount(hours, locale)} h ${minutes} min`;
}

/** Milliseconds as a duration (see `formatDuration`). */
export function formatDurationMs(ms: number, locale?: string): string {
  return formatDuration(ms / MS_PER_SECOND, locale);
}

/**
 * A rate in items per second with three significant digits and at most one decimal: 12.34 → "12.3/s",
 * 0.25 → "15/min" (slow rates read better per minute). With `unit`: formatRate(4.1, 'MB') → "4.1 MB/s".
 */
export function formatRate(perSecond: number, unit = '', locale?: string): string {
  if (!Number.isFinite(perSecond) || perSecond < 0) return UNKNOWN_VALUE;
  const perMinute = perSecond > 0 && perSecond < PER_MINUTE_BELOW;
  const value = perMinute ? perSecond * SECONDS_PER_MINUTE : perSecond;
  const digits = numberFormat(locale, {
    maximumSignificantDigits: SIGNIFICANT_DIGITS,
    maximumFractionDigits: 1,
    // Whichever rule keeps fewer digits: 5.91 → "5.9", 1234.5 → "1,230".
    roundingPriority: 'lessPrecision',
  }).format(value);
  const prefix = unit ? `${digits} ${unit}` : digits;
  return `${prefix}/${perMinute ? 'min' : 's'}`;
}

/** Options of `formatDate`. */
export interface DateFormatOptions {
  /** BCP 47 locale. Default: the browser's. */
  locale?: string;
  /** IANA time zone, e.g. "UTC". Default: the browser's. */
  timeZone?: string;
  /** Leave out the time of day. Default false. */
  dateOnly?: boolean;
}

/**
 * A date (ISO 8601 string, milliseconds since the epoch or Date) in the locale's medium style with a short
 * time: "Mar 3, 2025, 2:05 PM" (en-US), "3 mars 2025, 14:05" (fr-FR).
 * @returns "—" for an invalid date.
 */
export function formatDate(value: string | number | Date, options: DateFormatOptions = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return UNKNOWN_VALUE;
  return dateFormat(options).format(date);
}

/**
 * One formatter per set of options: making one costs about a millisecond, and a library row formats its date on
 * every render (ten a second while a build reports progress).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(options: DateFormatOptions): Intl.DateTimeFormat {
  const key = `${options.locale ?? ''}|${options.timeZone ?? ''}|${options.dateOnly === true}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(options.locale, {
      dateStyle: 'medium',
      ...(options.dateOnly ? {} : { timeStyle: 'short' }),
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    });
    dateFormats.set(key, format);
  }
  return format;
}

/** "1 document", "3 documents": a count with its noun, pluralised with a trailing "s" unless given. */
export function formatQuantity(
  n: number,
  singular: string,
  plural = `${singular}s`,
  locale?: string,
): string {
  return `${formatCount(n, locale)} ${n === 1 ? singular : plural}`;
}
