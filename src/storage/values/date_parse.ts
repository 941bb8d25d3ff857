/**
 * A date read from a string, as mongod reads one (`TimeZoneDatabase::fromString` in
 * mongo/src/mongo/db/query/datetime/date_time_support.cpp): without a format through timelib's
 * `strtotime` (what `$dateFromString` does without `format`, and `$toDate`/`$convert` with a
 * string), with one through timelib's `parse_from_format` and mongod's specifier map. Both fill
 * the same record (year, month, day, time, zone, a weekday to move to); mongod then refuses
 * errors and warnings, completes a missing time with midnight, refuses a date still incomplete,
 * and refuses a string carrying its own zone together with a `timezone` other than UTC.
 * Failures are 241 ConversionFailure with mongod's texts ("Error parsing date string ...").
 *
 * The format-less reader takes the forms timelib does that clients send: ISO 8601 dates
 * (`2017-02-08`, `2017-02-08T12:10:40.787Z`, `+05:00` offsets, ISO week dates `2024-W24-6`),
 * `2017/02/08`, US `02/08/2017`, `20170208`, month names (`oct 20 2020`, `20 October 2020`,
 * `Feb 8, 2017`), day names, times with `am`/`pm`, `Z`/`UTC`/`GMT` and zone abbreviations, and a
 * trailing year after the time (`WED jan 31 12:05:28 +03:30 1996`), and `@<seconds>` since the epoch.
 */
import { CommandError } from '../../errors/command_error.js';
import { type TimeZone, UTC, civilFromDays, daysFromCivil, dayOfWeek, instantFromParts } from './timezone.js';

/** mongod's 241 for a string it cannot read as a date. */
export function dateParseError(text: string, detail?: string): CommandError {
  return new CommandError(241, `Error parsing date string '${text}'${detail === undefined ? '' : `; ${detail}`}`);
}

/** What timelib fills while reading a string (null: TIMELIB_UNSET). */
interface Reading {
  y: number | null;
  m: number | null;
  d: number | null;
  h: number | null;
  i: number | null;
  s: number | null;
  /** Milliseconds of the second. */
  ms: number | null;
  /** 0: no zone in the string, 1: a UTC offset, 2: an abbreviation (`Z`, `UTC`, `EST`). */
  zoneType: 0 | 1 | 2;
  /** The offset from UTC the string carries, in seconds. */
  offset: number;
  abbr: string;
  /** A weekday to move forward to (0 = Sunday), or null. */
  weekday: number | null;
  haveTime: number;
  haveDate: boolean;
  /** Errors and warnings as mongod lists them: `<position>: <message> '<character>'`. */
  problems: string[];
}

function newReading(): Reading {
  return {
    y: null,
    m: null,
    d: null,
    h: null,
    i: null,
    s: null,
    ms: null,
    zoneType: 0,
    offset: 0,
    abbr: '',
    weekday: null,
    haveTime: 0,
    haveDate: false,
    problems: [],
  };
}

function problem(r: Reading, text: string, pos: number, message: string): void {
  r.problems.push(`${pos}: ${message} '${text[pos] ?? ''}'`);
}

const MONTHS: ReadonlyMap<string, number> = new Map([
  ['january', 1], ['jan', 1], ['february', 2], ['feb', 2], ['march', 3], ['mar', 3], ['april', 4], ['apr', 4],
  ['may', 5], ['june', 6], ['jun', 6], ['july', 7], ['jul', 7], ['august', 8], ['aug', 8], ['september', 9],
  ['sept', 9], ['sep', 9], ['october', 10], ['oct', 10], ['november', 11], ['nov', 11], ['december', 12], ['dec', 12],
  ['i', 1], ['ii', 2], ['iii', 3], ['iv', 4], ['v', 5], ['vi', 6], ['vii', 7], ['viii', 8], ['ix', 9], ['x', 10], ['xi', 11], ['xii', 12],
]);

const WEEKDAYS: ReadonlyMap<string, number> = new Map([
  ['sunday', 0], ['sun', 0], ['monday', 1], ['mon', 1], ['tuesday', 2], ['tue', 2], ['wednesday', 3], ['wed', 3],
  ['thursday', 4], ['thu', 4], ['friday', 5], ['fri', 5], ['saturday', 6], ['sat', 6],
]);

/** The zone abbreviations timelib knows that clients write, with their offsets in seconds. */
const ABBREVIATIONS: ReadonlyMap<string, number> = new Map([
  ['z', 0], ['utc', 0], ['gmt', 0], ['ut', 0], ['wet', 0],
  ['est', -18_000], ['edt', -14_400], ['cst', -21_600], ['cdt', -18_000], ['mst', -25_200], ['mdt', -21_600],
  ['pst', -28_800], ['pdt', -25_200], ['akst', -32_400], ['akdt', -28_800], ['hst', -36_000],
  ['bst', 3600], ['cet', 3600], ['cest', 7200], ['eet', 7200], ['eest', 10_800], ['msk', 10_800],
  ['ist', 19_800], ['jst', 32_400], ['kst', 32_400], ['aest', 36_000], ['aedt', 39_600],
]);

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** timelib_days_in_month. */
function daysInMonth(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
}

/** The digits of a fraction of a second as milliseconds (truncated, as timelib's microseconds). */
function fractionMs(digits: string): number {
  return Math.floor(Number(`0.${digits}`.slice(0, 8)) * 1000 + 1e-7);
}

/** Sets the date from an ISO week date (`timelib_date_from_isodate`). */
function setIsoDate(r: Reading, iy: number, iw: number, id: number): void {
  const dow = dayOfWeek(iy, 1, 1) - 1;
  const c = civilFromDays(daysFromCivil(iy, 1, 1) - (dow > 4 ? dow - 7 : dow) + (iw - 1) * 7 + id);
  r.y = c.year;
  r.m = c.month;
  r.d = c.day;
}

function setDate(r: Reading, text: string, pos: number, y: number | null, m: number, d: number): void {
  if (r.haveDate) {
    problem(r, text, pos, 'Double date specification');
    return;
  }
  r.haveDate = true;
  if (y !== null) r.y = y;
  r.m = m;
  r.d = d;
}

function setTime(r: Reading, text: string, pos: number, h: number, i: number, s: number, ms: number): void {
  if (r.haveTime > 0) {
    problem(r, text, pos, 'Double time specification');
    return;
  }
  r.haveTime = 1;
  r.h = h;
  r.i = i;
  r.s = s;
  r.ms = ms;
}

function setOffset(r: Reading, text: string, pos: number, seconds: number, type: 1 | 2, abbr: string): void {
  if (r.zoneType !== 0) {
    problem(r, text, pos, 'Double timezone specification');
    return;
  }
  r.zoneType = type;
  r.offset = seconds;
  r.abbr = abbr;
}

const TIME = /^[Tt]?(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,:](\d+))?)?(?:\s*([AaPp])\.?[Mm]\.?(?![A-Za-z]))?/y;
const TIME_AMPM = /^(\d{1,2})\s*([AaPp])\.?[Mm]\.?(?![A-Za-z])/y;
const ISO_WEEK = /^([+-]?\d{4})-?W(\d{2})(?:-?([0-7]))?(?!\d)/y;
const ISO_DATE = /^([+-]?\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/y;
const SLASH_YMD = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?!\d)/y;
const US_DATE = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?(?!\d)/y;
const POINTED = /^(\d{1,2})[.-](\d{1,2})[.-](\d{4})(?!\d)/y;
const NO_COLON = /^(\d{4})(\d{2})(\d{2})(?:[Tt](\d{2}):?(\d{2}):?(\d{2})(?:[.,](\d+))?)?(?!\d)/y;
const OFFSET = /^(?:GMT|UTC)?([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?(?!\d)/iy;
const DAY_MONTH = /^(\d{1,2})(?:st|nd|rd|th)?[ \t.-]*([A-Za-z]+)\.?(?:[ \t.,-]*(\d{4})(?!\d))?/y;
const WORD = /^[A-Za-z]+(?:[_/-][A-Za-z0-9_+-]+)*/y;
const MONTH_DAY = /^[ \t.-]*(\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:[ \t.,]+(\d{4})(?![\d:]))?/y;
const MONTH_YEAR = /^[ \t.-]*(\d{4})(?![\d:])/y;
const NUMBER = /^\d+/y;
const UNIX_SECONDS = /^@(-?\d+)(?:\.(\d+))?(?!\d)/y;

function match(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = 0;
  return re.exec(text.slice(pos));
}

/** timelib's `strtotime`, for the forms listed above. */
function readFree(text: string): Reading {
  const r = newReading();
  let pos = 0;
  let unixExtraMs = 0;
  if (text.length === 0) {
    problem(r, text, 0, 'Empty string');
    return r;
  }
  while (pos < text.length) {
    const c = text[pos]!;
    if (c === ' ' || c === '\t' || c === ',' || c === '\n' || c === '\r' || c === '\0' || c === '\u00a0') {
      pos++;
      continue;
    }
    let m: RegExpExecArray | null;
    if (c === '@' && (m = match(UNIX_SECONDS, text, pos)) !== null) {
      // "@<seconds since the epoch>", in UTC.
      const seconds = Number(m[1]);
      const ms = m[2] === undefined ? 0 : fractionMs(m[2]) * (m[1]!.startsWith('-') ? -1 : 1);
      const days = Math.floor(seconds / 86_400);
      const c1970 = civilFromDays(days);
      setDate(r, text, pos, c1970.year, c1970.month, c1970.day);
      const inDay = seconds - days * 86_400;
      setTime(r, text, pos, Math.floor(inDay / 3600), Math.floor(inDay / 60) % 60, inDay % 60, 0);
      r.ms = 0;
      setOffset(r, text, pos, 0, 1, '');
      unixExtraMs = ms;
      pos += m[0].length;
      continue;
    }
    if ((m = match(ISO_WEEK, text, pos)) !== null) {
      if (r.haveDate) problem(r, text, pos, 'Double date specification');
      r.haveDate = true;
      setIsoDate(r, Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3]));
      pos += m[0].length;
      continue;
    }
    if ((m = match(ISO_DATE, text, pos)) !== null) {
      const month = Number(m[2]);
      const day = Number(m[3]);
      if (month < 1 || month > 12 || day < 1 || day > 31) {
        problem(r, text, pos + m[1]!.length + 1, 'Unexpected character');
        pos += m[0].length;
        continue;
      }
      setDate(r, text, pos, Number(m[1]), month, day);
      pos += m[0].length;
      continue;
    }
    if ((m = match(SLASH_YMD, text, pos)) !== null) {
      setDate(r, text, pos, Number(m[1]), Number(m[2]), Number(m[3]));
      pos += m[0].length;
      continue;
    }
    if ((m = match(NO_COLON, text, pos)) !== null) {
      setDate(r, text, pos, Number(m[1]), Number(m[2]), Number(m[3]));
      if (m[4] !== undefined) setTime(r, text, pos, Number(m[4]), Number(m[5]), Number(m[6]), m[7] === undefined ? 0 : fractionMs(m[7]));
      pos += m[0].length;
      continue;
    }
    if ((m = match(US_DATE, text, pos)) !== null) {
      let year: number | null = null;
      if (m[3] !== undefined) {
        year = Number(m[3]);
        if (m[3].length === 2) year += year < 70 ? 2000 : 1900;
      }
      setDate(r, text, pos, year, Number(m[1]), Number(m[2]));
      pos += m[0].length;
      continue;
    }
    if ((m = match(POINTED, text, pos)) !== null) {
      setDate(r, text, pos, Number(m[3]), Number(m[2]), Number(m[1]));
      pos += m[0].length;
      continue;
    }
    if ((m = match(TIME, text, pos)) !== null) {
      let hour = Number(m[1]);
      if (m[5] !== undefined) {
        if (hour < 1 || hour > 12) problem(r, text, pos, 'Unexpected character');
        hour = (hour % 12) + (m[5].toLowerCase() === 'p' ? 12 : 0);
      }
      setTime(r, text, pos, hour, Number(m[2]), m[3] === undefined ? 0 : Number(m[3]), m[4] === undefined ? 0 : fractionMs(m[4]));
      pos += m[0].length;
      continue;
    }
    if ((m = match(TIME_AMPM, text, pos)) !== null) {
      const hour = Number(m[1]);
      if (hour < 1 || hour > 12) problem(r, text, pos, 'Unexpected character');
      setTime(r, text, pos, (hour % 12) + (m[2]!.toLowerCase() === 'p' ? 12 : 0), 0, 0, 0);
      pos += m[0].length;
      continue;
    }
    if ((c === '+' || c === '-' || /[GU]/i.test(c)) && (m = match(OFFSET, text, pos)) !== null) {
      // `±H`, `±HH`, `±HMM`, `±HHMM`, `±HH:MM`, optionally seconds, after an optional GMT/UTC.
      const sign = m[1] === '-' ? -1 : 1;
      const hours = Number(m[2]);
      const minutes = m[3] === undefined ? 0 : Number(m[3]);
      const seconds = m[4] === undefined ? 0 : Number(m[4]);
      setOffset(r, text, pos, sign * (hours * 3600 + minutes * 60 + seconds), 1, '');
      pos += m[0].length;
      continue;
    }
    if ((m = match(DAY_MONTH, text, pos)) !== null && MONTHS.has(m[2]!.toLowerCase()) && !/^[ivx]+$/i.test(m[2]!)) {
      setDate(r, text, pos, m[3] === undefined ? null : Number(m[3]), MONTHS.get(m[2]!.toLowerCase())!, Number(m[1]));
      pos += m[0].length;
      continue;
    }
    if (/[A-Za-z]/.test(c) && (m = match(WORD, text, pos)) !== null) {
      const word = m[0];
      const lower = word.toLowerCase();
      const month = MONTHS.get(lower.replace(/\.$/, ''));
      if (month !== undefined && !/^[ivx]+$/.test(lower)) {
        let end = pos + word.length;
        if (text[end] === '.') end++;
        const dm = match(MONTH_DAY, text, end);
        if (dm !== null) {
          setDate(r, text, pos, dm[2] === undefined ? null : Number(dm[2]), month, Number(dm[1]));
          pos = end + dm[0].length;
          continue;
        }
        const ym = match(MONTH_YEAR, text, end);
        if (ym !== null) {
          setDate(r, text, pos, Number(ym[1]), month, 1);
          pos = end + ym[0].length;
          continue;
        }
        setDate(r, text, pos, null, month, 1);
        pos = end;
        continue;
      }
      const weekday = WEEKDAYS.get(lower);
      if (weekday !== undefined) {
        r.weekday = weekday;
        pos += word.length;
        continue;
      }
      const abbr = ABBREVIATIONS.get(lower);
      if (abbr !== undefined) {
        setOffset(r, text, pos, abbr, 2, word.toUpperCase());
        pos += word.length;
        continue;
      }
      if (word.includes('/')) {
        problem(r, text, pos, 'passing a time zone identifier as part of the string is not allowed');
      } else {
        problem(r, text, pos, 'The timezone could not be found in the database');
      }
      pos += word.length;
      continue;
    }
    if ((m = match(NUMBER, text, pos)) !== null && m[0].length === 4) {
      // "gnunocolon": HHMM before any time, the year after one.
      if (r.haveTime === 0) {
        setTime(r, text, pos, Number(m[0].slice(0, 2)), Number(m[0].slice(2)), 0, 0);
      } else if (r.haveTime === 1 && r.y === null) {
        r.y = Number(m[0]);
        r.haveTime++;
      } else {
        problem(r, text, pos, 'Double time specification');
      }
      pos += 4;
      continue;
    }
    problem(r, text, pos, 'Unexpected character');
    pos += m === null ? 1 : m[0].length;
  }
  if (r.haveDate && r.y !== null && r.m !== null && r.d !== null && (r.d < 1 || r.d > daysInMonth(r.y, r.m) || r.m < 1 || r.m > 12)) {
    r.problems.push(`${text.length}: The parsed date was invalid '${''}'`);
  }
  if (r.haveTime > 0 && r.h !== null && (r.h > 23 || (r.i ?? 0) > 59 || (r.s ?? 0) > 59)) {
    r.problems.push(`${text.length}: The parsed time was invalid '${''}'`);
  }
  if (unixExtraMs !== 0) r.ms = (r.ms ?? 0) + unixExtraMs;
  return r;
}

/**
 * Reads `min` to `max` digits where the reading stands (timelib's TIMELIB_CHECK_NUMBER, then
 * timelib_get_nr), or null.
 */
function readNumber(text: string, at: { pos: number }, max: number, min = 1): number | null {
  let p = at.pos;
  let digits = '';
  while (p < text.length && digits.length < max && text[p]! >= '0' && text[p]! <= '9') digits += text[p++];
  if (digits.length < min) return null;
  at.pos = p;
  return Number(digits);
}

/** timelib's `parse_from_format` with mongod's specifier map (`kDateFromStringFormatMap`). */
function readFormatted(text: string, format: string): Reading {
  const r = newReading();
  const at = { pos: 0 };
  let isoYear: number | null = null;
  let isoWeek: number | null = null;
  let isoDay: number | null = null;
  let dayOfYearAfterYear: number | null = null;
  const fail = (message: string): void => problem(r, text, at.pos, message);
  for (let f = 0; f < format.length && r.problems.length === 0; f++) {
    const fc = format[f]!;
    if (fc !== '%') {
      if (text[at.pos] === fc) at.pos++;
      else fail('The format separator does not match');
      continue;
    }
    const spec = format[++f]!;
    if (at.pos >= text.length && spec !== '%') {
      fail('Data missing');
      break;
    }
    switch (spec) {
      case '%':
        if (text[at.pos] === '%') at.pos++;
        else fail('The escaped character could not be found');
        break;
      case 'd': {
        const n = readNumber(text, at, 2);
        if (n === null) fail('A two digit day could not be found');
        else {
          r.d = n;
          r.haveDate = true;
        }
        break;
      }
      case 'm': {
        const n = readNumber(text, at, 2);
        if (n === null) fail('A two digit month could not be found');
        else {
          r.m = n;
          r.haveDate = true;
        }
        break;
      }
      case 'Y': {
        const n = readNumber(text, at, 4, 4);
        if (n === null) fail('A four digit year could not be found');
        else {
          r.y = n;
          r.haveDate = true;
        }
        break;
      }
      case 'G': {
        const n = readNumber(text, at, 4);
        if (n === null) fail('A four digit ISO year could not be found');
        else isoYear = n;
        break;
      }
      case 'V': {
        const n = readNumber(text, at, 2);
        if (n === null) fail('A two digit ISO week could not be found');
        else isoWeek = n;
        break;
      }
      case 'u': {
        const n = readNumber(text, at, 1);
        if (n === null) fail('A single digit day of week could not be found');
        else isoDay = n;
        break;
      }
      case 'j': {
        const n = readNumber(text, at, 3);
        if (n === null) fail('A three digit day-of-year could not be found');
        else if (r.y === null) fail("A 'day of year' can only come after a year has been found");
        else dayOfYearAfterYear = n;
        break;
      }
      case 'H': {
        const n = readNumber(text, at, 2);
        if (n === null) fail('A two digit hour could not be found');
        else if (n > 23) fail('Hour cannot be higher than 23');
        else {
          r.h = n;
          r.haveTime = 1;
        }
        break;
      }
      case 'M': {
        const n = readNumber(text, at, 2);
        if (n === null) fail('A two digit minute could not be found');
        else {
          r.i = n;
          r.haveTime = 1;
        }
        break;
      }
      case 'S': {
        const n = readNumber(text, at, 2);
        if (n === null) fail('A two digit second could not be found');
        else {
          r.s = n;
          r.haveTime = 1;
        }
        break;
      }
      case 'L': {
        const n = readNumber(text, at, 3, 3);
        if (n === null) fail('A three digit millisecond could not be found');
        else r.ms = n;
        break;
      }
      case 'b':
      case 'B': {
        const m = /^[A-Za-z]+/.exec(text.slice(at.pos));
        const month = m === null ? undefined : MONTHS.get(m[0].toLowerCase());
        if (m === null || month === undefined || /^[ivx]+$/i.test(m[0])) fail('A textual month could not be found');
        else {
          r.m = month;
          r.haveDate = true;
          at.pos += m[0].length;
        }
        break;
      }
      case 'z': {
        const rest = text.slice(at.pos);
        const o = /^([+-])(\d{2}):?(\d{2})?/.exec(rest);
        if (o !== null) {
          const seconds = (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 3600 + Number(o[3] ?? 0) * 60);
          setOffset(r, text, at.pos, seconds, 1, '');
          at.pos += o[0].length;
          break;
        }
        const w = /^[A-Za-z]+/.exec(rest);
        const abbr = w === null ? undefined : ABBREVIATIONS.get(w[0].toLowerCase());
        if (w === null || abbr === undefined) fail('The timezone could not be found in the database');
        else {
          setOffset(r, text, at.pos, abbr, 2, w[0].toUpperCase());
          at.pos += w[0].length;
        }
        break;
      }
      case 'Z': {
        const o = /^([+-]?)(\d+)/.exec(text.slice(at.pos));
        if (o === null) fail('A timezone offset in minutes could not be found');
        else {
          setOffset(r, text, at.pos, (o[1] === '-' ? -1 : 1) * Number(o[2]) * 60, 1, '');
          at.pos += o[0].length;
        }
        break;
      }
      default:
        fail('The format separator does not match');
        break;
    }
  }
  if (r.problems.length === 0 && at.pos < text.length) {
    r.problems.push(`${at.pos}: Trailing data '${text[at.pos]}'`);
  }
  if (r.problems.length > 0) return r;
  if (r.h !== null || r.i !== null || r.s !== null || r.ms !== null) {
    r.h ??= 0;
    r.i ??= 0;
    r.s ??= 0;
    r.ms ??= 0;
  }
  if (isoYear !== null || isoWeek !== null || isoDay !== null) {
    setIsoDate(r, isoYear ?? 1970, isoWeek ?? 1, isoDay ?? 1);
    r.haveDate = true;
  }
  if (dayOfYearAfterYear !== null && r.y !== null) {
    // `%j` counts from 0 (timelib's day of year): day 0 is January 1st.
    const c = civilFromDays(daysFromCivil(r.y, 1, 1) + dayOfYearAfterYear);
    r.y = c.year;
    r.m = c.month;
    r.d = c.day;
  }
  if (r.haveDate && r.y !== null && r.m !== null && r.d !== null && (r.m < 1 || r.m > 12 || r.d < 1 || r.d > daysInMonth(r.y, r.m))) {
    r.problems.push(`${text.length}: The parsed date was invalid '${''}'`);
  }
  if (r.haveTime > 0 && r.h !== null && ((r.i ?? 0) > 59 || (r.s ?? 0) > 59)) {
    r.problems.push(`${text.length}: The parsed time was invalid '${''}'`);
  }
  return r;
}

/** mongod's `fromString` after timelib: errors, missing parts, the zone, the instant. */
function instantOf(text: string, r: Reading, zone: TimeZone): number {
  if (r.problems.length > 0) throw dateParseError(text, r.problems.join('; '));
  if (r.h === null && r.i === null && r.s === null) {
    r.h = 0;
    r.i = 0;
    r.s = 0;
    r.ms = 0;
  }
  if (r.y === null || r.m === null || r.d === null || r.h === null || r.i === null || r.s === null) {
    throw new CommandError(241, `an incomplete date/time string has been found, with elements missing: "${text}"`);
  }
  const utc = zone === UTC || (zone.fixed && zone.offsetMs(0) === 0);
  if (!utc && r.zoneType === 1) {
    throw new CommandError(241, 'you cannot pass in a date/time string with GMT offset together with a timezone argument');
  }
  if (!utc && r.zoneType === 2) {
    throw new CommandError(241, `you cannot pass in a date/time string with time zone information ('${r.abbr}') together with a timezone argument`);
  }
  let day = r.d;
  if (r.weekday !== null) {
    const current = dayOfWeek(r.y, r.m, r.d) - 1;
    day += (r.weekday - current + 7) % 7;
  }
  const parts = { year: r.y, month: r.m, day, hour: r.h, minute: r.i, second: r.s, millisecond: r.ms ?? 0 };
  if (r.zoneType !== 0) return instantFromParts(parts, UTC) - r.offset * 1000;
  return instantFromParts(parts, zone);
}

/**
 * The instant `text` names, read without a format, its wall time read in `zone` unless the
 * string carries its own offset (which mongod refuses together with a zone other than UTC).
 */
export function parseDateString(text: string, zone: TimeZone = UTC): number {
  return instantOf(text, readFree(text), zone);
}

/** The instant `text` names read through `format` (a validated `$dateFromString` format). */
export function parseDateStringWithFormat(text: string, format: string, zone: TimeZone = UTC): number {
  return instantOf(text, readFormatted(text, format), zone);
}
