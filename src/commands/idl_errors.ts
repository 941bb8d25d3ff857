/**
 * The IDL's type error text, shared by the argument table (args.ts) and the generic concerns
 * (read_write_concern.ts), so that neither imports the other's module.
 */
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';

/** mongod's IDL names of the numeric types, in its order. */
export const NUMBER_TYPE_NAMES = ['long', 'int', 'decimal', 'double'] as const;

/**
 * `BSON field '<path>' is the wrong type '<t>', expected type '<name>'` (14), or `expected types
 * '[a, b']` for several: mongod 8's text, its misplaced closing quote included.
 */
export function typeMismatch(path: string, value: unknown, names: readonly string[]): CommandError {
  const expected = names.length === 1 ? `expected type '${names[0]}'` : `expected types '[${names.join(', ')}']`;
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', ${expected}`);
}
