/**
 * `$round` (ExpressionRound): the number rounded half to even at a decimal place (default 0,
 * in [-20, 100]), in its own type (an Int32 that outgrows Int32 becomes an Int64); null or
 * missing number or place makes null.
 */
import type { ExpressionOperator } from '../../types.js';
import { roundOrTruncOperator } from './_internal.js';

/** `{$round: <number>}` or `{$round: [<number>, <place>]}`. */
export const round: ExpressionOperator = roundOrTruncOperator('$round', 'halfEven');
