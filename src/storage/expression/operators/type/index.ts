/** The type operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { convert } from './convert.js';
import { isNumber } from './is_number.js';
import { toBool } from './to_bool.js';
import { toDate } from './to_date.js';
import { toDecimal } from './to_decimal.js';
import { toDouble } from './to_double.js';
import { toInt } from './to_int.js';
import { toLong } from './to_long.js';
import { toObjectId } from './to_object_id.js';
import { toString } from './to_string.js';
import { toUUID } from './to_uuid.js';
import { type } from './type.js';

/** Type expression operators. */
export const TYPE: readonly ExpressionOperator[] = [
  convert,
  isNumber,
  toBool,
  toDate,
  toDecimal,
  toDouble,
  toInt,
  toLong,
  toObjectId,
  toString,
  toUUID,
  type,
];
