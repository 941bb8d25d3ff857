/**
 * The conversion table of `$convert` (mongod 8.2): one function per target type, the failures
 * of an input the target does not take being 241 "Unsupported conversion".
 */
import { convertToBinData } from './to_bin_data.js';
import { convertToDate } from './to_date.js';
import { convertToDecimal, convertToDouble, convertToInt, convertToLong } from './to_number.js';
import { convertToBool, convertToObjectId } from './to_other.js';
import { convertToString } from './to_string.js';
import { unsupported } from './failure.js';
import type { ConvertOptions } from './options.js';

/** `input` (not nullish) converted to `opts.target`; throws 241 when it cannot be. */
export function convertValue(input: unknown, opts: ConvertOptions): unknown {
  switch (opts.target) {
    case 'double':
      return convertToDouble(input, opts);
    case 'string':
      return convertToString(input, opts);
    case 'objectId':
      return convertToObjectId(input, opts);
    case 'bool':
      return convertToBool(input);
    case 'date':
      return convertToDate(input, opts);
    case 'int':
      return convertToInt(input, opts);
    case 'long':
      return convertToLong(input, opts);
    case 'decimal':
      return convertToDecimal(input, opts);
    case 'binData':
      return convertToBinData(input, opts);
    default:
      throw unsupported(input, opts.target);
  }
}
