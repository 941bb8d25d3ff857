/**
 * `$currentDate` (current_date_node.cpp): `true`/`false` or `{$type: 'date'}` sets a Date,
 * `{$type: 'timestamp'}` a Timestamp (seconds of the injected time, increment counting up
 * within a second). Always a modification.
 */
import { Timestamp } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { ModifierDefinition, ModifierParser } from './types.js';

let lastSeconds = -1;
let lastIncrement = 0;

/** A Timestamp for `now`: its seconds, and an increment unique within that second. */
export function nextTimestamp(now: Date): Timestamp {
  const seconds = Math.floor(now.getTime() / 1000);
  if (seconds === lastSeconds) lastIncrement++;
  else {
    lastSeconds = seconds;
    lastIncrement = 1;
  }
  return new Timestamp({ t: seconds, i: lastIncrement });
}

const parseCurrentDate: ModifierParser = (_field, arg) => {
  let isDate = true;
  if (typeof arg === 'boolean') {
    isDate = true;
  } else if (isDocument(arg)) {
    let found = false;
    for (const [key, value] of Object.entries(arg)) {
      if (key !== '$type') throw new CommandError('BadValue', `Unrecognized $currentDate option: ${key}`);
      if (value === 'date') {
        isDate = true;
        found = true;
      } else if (value === 'timestamp') {
        isDate = false;
        found = true;
      }
    }
    if (!found) {
      throw new CommandError(
        'BadValue',
        "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
      );
    }
  } else {
    throw new CommandError(
      'BadValue',
      `${bsonTypeOf(arg)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
    );
  }
  const value = (now: Date): unknown => (isDate ? new Date(now.getTime()) : nextTimestamp(now));
  return {
    op: '$currentDate',
    allowCreation: true,
    updateExisting: (_current, mc) => value(mc.update.now),
    createValue: (mc) => value(mc.update.now),
  };
};

/** `$currentDate`. */
export const currentDate: ModifierDefinition = { name: '$currentDate', kind: 'modifier', parse: parseCurrentDate };
