/** `$toObjectId` (ExpressionConvert to objectId (24 hex digits)): null for a nullish input. */
import type { ExpressionOperator } from '../../types.js';
import { plainOptions } from './_internal/options.js';
import { toTypeOperator } from './_internal/to_type.js';

/** `{$toObjectId: <expression>}`. */
export const toObjectId: ExpressionOperator = toTypeOperator('$toObjectId', plainOptions('objectId'));
