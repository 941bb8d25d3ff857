/**
 * `profile` (profile_common.cpp): reads (`-1`) or sets a database's profiling level (0–2), and
 * the server's `slowms` and `sampleRate` and the database's `filter` (a match expression, or
 * `"unset"`). The reply holds the settings as they were before the change. The settings are kept
 * as mongod keeps them; Mayfly's profiler records no operations into `system.profile`.
 */
import { makeDouble, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compileFilter } from '../../storage/query/compile_filter.js';
import { isNumber, safeNumberLong, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { NUMBER_TYPE_NAMES, typeMismatch } from '../idl_errors.js';
import type { ArgRule, CommandDefinition } from '../types.js';
import { adminState, type ProfileSettings } from '../admin/_internal/admin_state.js';

const FILTER_NOTE = 'When a filter expression is set, slowms and sampleRate are not used for profiling and slow-query log lines.';

/** A number (null reads as absent). */
const numberRule: ArgRule = {
  type: 'number',
  parse(value, field, idl) {
    if (value !== null && !isNumber(value)) throw typeMismatch(`${idl}.${field}`, value, NUMBER_TYPE_NAMES);
  },
};

/** The level: a number, null read as missing (40414). */
const levelRule: ArgRule = {
  type: 'number',
  required: true,
  parse(value, field, idl) {
    if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
    if (!isNumber(value)) throw typeMismatch(`${idl}.${field}`, value, NUMBER_TYPE_NAMES);
  },
};

/** The filter as mongod serializes its match expression: bare values become `{$eq: value}`. */
function normalizeFilter(filter: Document): Document {
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      out[key] = value.map((v) => (isDocument(v) ? normalizeFilter(v) : v));
    } else if (key.startsWith('$')) {
      out[key] = value;
    } else if (isDocument(value) && Object.keys(value).length > 0 && Object.keys(value)[0]!.startsWith('$')) {
      out[key] = value;
    } else {
      out[key] = { $eq: value };
    }
  }
  return out;
}

/** The `profile` command. */
export const profile: CommandDefinition = {
  name: 'profile',
  target: levelRule,
  args: { slowms: numberRule, sampleRate: numberRule, filter: { type: 'any' } },
  help: 'controls the behaviour of the performance profiler, the fraction of eligible operations which are sampled for logging/profiling, and the threshold duration at which ops become eligible. See http://docs.mongodb.org/manual/reference/command/profile',
  run(ctx, cmd) {
    const state = adminState(ctx.server);
    const level = Number(safeNumberLong(cmd.profile)!);
    if (level < -1 || level > 2) throw new CommandError('BadValue', `Invalid profiling level: ${level}`);
    let sampleRate: number | undefined;
    if (cmd.sampleRate !== undefined && cmd.sampleRate !== null) {
      sampleRate = toDouble(cmd.sampleRate);
      if (!(sampleRate >= 0 && sampleRate <= 1)) throw new CommandError('BadValue', "'sampleRate' must be between 0.0 and 1.0 inclusive");
    }
    let filter: Document | null | undefined;
    if (cmd.filter !== undefined) {
      if (cmd.filter === 'unset') filter = null;
      else if (isDocument(cmd.filter)) {
        compileFilter(cmd.filter);
        filter = normalizeFilter(cmd.filter);
      } else throw new CommandError('BadValue', "Expected an object, or the string 'unset'.");
    }
    const settings: ProfileSettings = state.profile.get(ctx.db) ?? { level: 0, slowms: state.slowms, sampleRate: state.sampleRate, filter: undefined };
    const reply: Document = {
      was: settings.level,
      slowms: state.slowms,
      sampleRate: makeDouble(state.sampleRate),
      ...(settings.filter === undefined ? {} : { filter: settings.filter, note: FILTER_NOTE }),
    };
    if (cmd.slowms !== undefined && cmd.slowms !== null) {
      const ms = safeNumberLong(cmd.slowms)!;
      state.slowms = Number(ms > 2147483647n ? 2147483647n : ms < -2147483648n ? -2147483648n : ms);
    }
    if (sampleRate !== undefined) state.sampleRate = sampleRate;
    if (level !== -1) settings.level = level;
    if (filter !== undefined) settings.filter = filter ?? undefined;
    settings.slowms = state.slowms;
    settings.sampleRate = state.sampleRate;
    state.profile.set(ctx.db, settings);
    return reply;
  },
};
