/** Argument rules the administration and diagnostic commands share (mongod IDL types). */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../../storage/values/bson_type.js';
import { typeMismatch } from '../../idl_errors.js';
import type { ArgRule } from '../../types.js';

/** IDL `int`: an Int32 only, no coercion (null reads as absent). */
export const int32Rule: ArgRule = {
  type: 'number',
  parse(value, field, idl) {
    if (value === null || bsonTypeOf(value) === 'int') return;
    throw typeMismatch(`${idl}.${field}`, value, ['int']);
  },
};

/** IDL `bool`: a boolean only (null reads as absent). */
export const strictBoolRule: ArgRule = {
  type: 'bool',
  parse(value, field, idl) {
    if (value === null || typeof value === 'boolean') return;
    throw typeMismatch(`${idl}.${field}`, value, ['bool']);
  },
};

/** A required IDL `bool` command value: null is `missing but a required field` (40414). */
export const requiredBoolTarget: ArgRule = {
  type: 'bool',
  required: true,
  parse(value, field, idl) {
    if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
    if (typeof value !== 'boolean') throw typeMismatch(`${idl}.${field}`, value, ['bool']);
  },
};
