/**
 * Time zones and the civil calendar, as mongod's date expressions see them
 * (`TimeZoneDatabase::getTimeZone`, `TimeZone::dateParts` in
 * mongo/src/mongo/db/query/datetime/date_time_support.cpp): an Olson name from the IANA database
 * (through Node's `Intl`, whose ICU carries it) or a UTC offset `±HH`, `±HHMM`, `±HH:MM`; dates
 * split into proleptic Gregorian parts for any year, and parts put back together with mongod's
 * carrying (month 14 is February of the next year, hour -1 the day before).
 */

/** A time zone: its identifier as given and its offset from UTC at an instant. */
export interface TimeZone {
  /** The identifier as written (`'Europe/Paris'`, `'+05:30'`, `'UTC'`). */
  readonly id: string;
  /** True for a constant offset (UTC or `±HH:MM`), which never moves. */
  readonly fixed: boolean;
  /** Milliseconds to add to a UTC instant to get the local wall clock at that instant. */
  offsetMs(instantMs: number): number;
}

/** A date split into its civil parts (`month` 1–12, `day` 1–31). */
export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** Milliseconds in a day of the civil calendar (UTC days: no leap seconds). */
export const MS_PER_DAY = 86_400_000;

function fixedZone(id: string, offsetMs: number): TimeZone {
  return { id, fixed: true, offsetMs: () => offsetMs };
}

/** UTC, the zone of every date expression without a `timezone`. */
export const UTC: TimeZone = fixedZone('UTC', 0);

/** mongod's `parseUtcOffset`: `±HH`, `±HHMM` or `±HH:MM` (no range check: `+25:00` is 25 hours). */
export function parseUtcOffset(spec: string): number | null {
  const m = /^([+-])(\d\d)(?::?(\d\d))?$/.exec(spec);
  if (m === null) return null;
  if (m[3] === undefined && spec.length !== 3) return null;
  const sign = m[1] === '+' ? 1 : -1;
  return sign * (Number(m[2]) * 3_600_000 + Number(m[3] ?? 0) * 60_000);
}

const NAMED = new Map<string, TimeZone | null>();

/**
 * Identifiers ICU accepts that are not in the IANA database mongod's timelib carries (ICU's
 * legacy three-letter IDs, its SystemV zones, a link tzdata dropped): mongod answers 40485.
 */
const ICU_ONLY_IDS: ReadonlySet<string> = new Set(
  'ACT AET AGT ART AST BET BST CAT CNT CST CTT EAT ECT IET IST JST MIT NET NST PLT PNT PRT PST SST VST Canada/East-Saskatchewan'.split(' '),
);

/**
 * The zone Intl knows by `id`, or null. Intl matches names without regard to case and mongod
 * does not, so a name must be spelled as the database spells it: its canonical name, or an
 * alias (`US/Eastern`, `Asia/Calcutta`) whose every part starts as the database's do.
 */
function namedZone(id: string): TimeZone | null {
  if (ICU_ONLY_IDS.has(id) || id.startsWith('SystemV/')) return null;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  const resolved = format.resolvedOptions().timeZone;
  if (resolved !== id) {
    if (resolved.toLowerCase() === id.toLowerCase()) return null;
    if (!id.split('/').every((part) => /^[A-Z]/.test(part))) return null;
  }
  if (/^[+-]/.test(id)) return null;
  const offsetMs = (instantMs: number): number => {
    // The wall clock at the instant (whole seconds: ICU's offsets are whole seconds), read back as UTC.
    const seconds = Math.floor(instantMs / 1000) * 1000;
    let year = 0;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let bc = false;
    for (const part of format.formatToParts(seconds)) {
      switch (part.type) {
        case 'year':
          year = Number(part.value);
          break;
        case 'month':
          month = Number(part.value);
          break;
        case 'day':
          day = Number(part.value);
          break;
        case 'hour':
          hour = Number(part.value);
          break;
        case 'minute':
          minute = Number(part.value);
          break;
        case 'second':
          second = Number(part.value);
          break;
        case 'era':
          bc = part.value === 'BC' || part.value === 'B';
          break;
        default:
          break;
      }
    }
    if (bc) year = 1 - year;
    const wall = daysFromCivil(year, month, day) * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
    return wall - seconds;
  };
  return { id, fixed: false, offsetMs };
}

/**
 * The time zone `id` names (an Olson name, `UTC`/`GMT`, or a UTC offset), or null when mongod
 * would answer 40485 "unrecognized time zone identifier". Named zones are cached.
 */
export function timeZoneNamed(id: string): TimeZone | null {
  if (id === 'UTC') return UTC;
  const offset = parseUtcOffset(id);
  if (offset !== null) return fixedZone(id, offset);
  let zone = NAMED.get(id);
  if (zone === undefined) {
    zone = id === '' ? null : namedZone(id);
    if (NAMED.size < 1024) NAMED.set(id, zone);
  }
  return zone;
}

/** Days since 1970-01-01 of a proleptic Gregorian date; `month` may be outside 1–12 (it carries). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const m0 = month - 1;
  const y = year + Math.floor(m0 / 12);
  const m = ((m0 % 12) + 12) % 12 + 1;
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * The day count of `year-month-day` moved by `months` (any sign), the day clamped to the end of
 * the month reached (January 31 + 1 month is the last day of February), as `$dateAdd` and
 * `$densify` move dates by months.
 */
export function addMonthsClamped(year: number, month: number, day: number, months: number): number {
  const total = year * 12 + (month - 1) + months;
  const y = Math.floor(total / 12);
  const m = total - y * 12 + 1;
  const monthDays = daysFromCivil(y, m + 1, 1) - daysFromCivil(y, m, 1);
  return daysFromCivil(y, m, Math.min(day, monthDays));
}

/** The proleptic Gregorian date of a day count since 1970-01-01. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** The civil parts of the wall clock at `instantMs` (milliseconds since the epoch) in `zone`. */
export function dateParts(instantMs: number, zone: TimeZone): DateParts {
  const local = instantMs + zone.offsetMs(instantMs);
  const days = Math.floor(local / MS_PER_DAY);
  const inDay = local - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  return {
    year,
    month,
    day,
    hour: Math.floor(inDay / 3_600_000),
    minute: Math.floor(inDay / 60_000) % 60,
    second: Math.floor(inDay / 1000) % 60,
    millisecond: inDay % 1000,
  };
}

/**
 * The instant whose wall clock in `zone` shows these parts; every part carries into the next
 * (mongod's `createFromDateParts`). In a named zone's gap or overlap, the offset is chosen as
 * timelib chooses it (below).
 */
export function instantFromParts(parts: DateParts, zone: TimeZone): number {
  const local =
    daysFromCivil(parts.year, parts.month, 1) * MS_PER_DAY +
    (parts.day - 1) * MS_PER_DAY +
    parts.hour * 3_600_000 +
    parts.minute * 60_000 +
    parts.second * 1000 +
    parts.millisecond;
  if (zone.fixed) return local - zone.offsetMs(local);
  // timelib's do_adjust_timezone: the offset at the wall time read as UTC ("current"), then at
  // the instant that gives ("after"); the latter unless the wall time falls in the hour a
  // transition skips, which keeps the offset from before it (02:30 on a spring-forward night in
  // New York is 03:30 EDT).
  const current = zone.offsetMs(local);
  const after = zone.offsetMs(local - current);
  if (current === after) return local - current;
  const x = local - after;
  const skip = after - current;
  const inTransition = skip > 0 && zone.offsetMs(x) !== after && zone.offsetMs(x + skip) === after;
  return inTransition ? local - current : local - after;
}

/** 1 (Sunday) to 7 (Saturday), mongod's `$dayOfWeek`, of a civil date. */
export function dayOfWeek(year: number, month: number, day: number): number {
  return ((((daysFromCivil(year, month, day) + 4) % 7) + 7) % 7) + 1;
}

/** 1–366, mongod's `$dayOfYear`. */
export function dayOfYear(year: number, month: number, day: number): number {
  return daysFromCivil(year, month, day) - daysFromCivil(year, 1, 1) + 1;
}

/** ISO 8601 week-numbering: the ISO year, week 1–53 and day 1 (Monday) – 7 (Sunday). */
export function isoWeekDate(year: number, month: number, day: number): { isoYear: number; isoWeek: number; isoDayOfWeek: number } {
  const days = daysFromCivil(year, month, day);
  const isoDayOfWeek = ((((days + 3) % 7) + 7) % 7) + 1;
  // The Thursday of this ISO week decides its year.
  const thursday = days - isoDayOfWeek + 4;
  const isoYear = civilFromDays(thursday).year;
  const isoWeek = Math.floor((thursday - daysFromCivil(isoYear, 1, 1)) / 7) + 1;
  return { isoYear, isoWeek, isoDayOfWeek };
}
