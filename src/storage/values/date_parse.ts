/**
 * A date read from a string without a format, as mongod reads one (`TimeZoneDatabase::fromString`
 * in mongo/src/mongo/db/query/datetime/date_time_support.cpp, which hands the string to timelib's
 * `strtotime`): what `$dateFromString` does without `format`, and what `$toDate`/`$convert` do
 * with a string. Failures are 241 ConversionFailure with mongod's texts.
 */
import { CommandError } from '../../errors/command_error.js';
import { type DateParts, type TimeZone, UTC, instantFromParts } from './timezone.js';

/** mongod's 241 for a string it cannot read as a date. */
export function dateParseError(text: string, detail?: string): CommandError {
  return new CommandError(241, `Error parsing date string '${text}'${detail === undefined ? '' : `; ${detail}`}`);
}

const ISO =
  /^([+-]?\d{4,})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant `text` names, its wall time read in `zone` unless the string carries its own
 * offset (which mongod refuses together with a zone other than UTC).
 */
export function parseDateString(text: string, zone: TimeZone = UTC): number {
  const m = ISO.exec(text.trim());
  if (m === null) throw dateParseError(text);
  const parts: DateParts = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: m[4] === undefined ? 0 : Number(m[4]),
    minute: m[5] === undefined ? 0 : Number(m[5]),
    second: m[6] === undefined ? 0 : Number(m[6]),
    millisecond: m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000 + 1e-9),
  };
  if (parts.month < 1 || parts.month > 12 || parts.day < 1 || parts.day > 31 || parts.hour > 24 || parts.minute > 59 || parts.second > 60) {
    throw dateParseError(text);
  }
  const suffix = m[8];
  if (suffix === undefined) return instantFromParts(parts, zone);
  if (zone !== UTC && zone.id !== 'UTC') {
    throw new CommandError(241, 'you cannot pass in a date/time string with GMT offset together with a timezone argument');
  }
  const upper = suffix.toUpperCase();
  if (upper === 'Z' || upper === 'UTC' || upper === 'GMT') return instantFromParts(parts, UTC);
  const sign = suffix[0] === '-' ? -1 : 1;
  const digits = suffix.slice(1).replace(':', '');
  const offsetMs = sign * (Number(digits.slice(0, 2)) * 3_600_000 + Number(digits.slice(2, 4) || '0') * 60_000);
  return instantFromParts(parts, UTC) - offsetMs;
}
