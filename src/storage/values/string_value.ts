/**
 * The ceiling of a string value: mongod refuses to make a `Value` of a string of 16MB or more of
 * UTF-8 (`RCString::create`, 16493), whether the string is a constant of an expression or what
 * an operator computes.
 */
import { CommandError } from '../../errors/command_error.js';

/** The largest BSON object a user may build (`BSONObjMaxUserSize`): a string value stays below it. */
export const STRING_VALUE_LIMIT = 16 * 1024 * 1024;

/** `s` as a string value: 16493 when it reaches 16MB of UTF-8. */
export function stringValue(s: string): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes: short strings need no count.
  if (s.length * 3 >= STRING_VALUE_LIMIT && Buffer.byteLength(s, 'utf8') >= STRING_VALUE_LIMIT) {
    throw new CommandError(16493, `Tried to create string longer than ${STRING_VALUE_LIMIT / 1024 / 1024}MB`);
  }
  return s;
}
