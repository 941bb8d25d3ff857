/**
 * `killOp` (kill_op_cmd_base.cpp): asks the operation `op` to stop. Every Mayfly operation runs
 * to its end on the event loop before the next starts, so none is ever found running; the reply
 * is mongod's all the same. `op` is read as `bsonExtractIntegerField` does (4 when missing, 14
 * when not a number, 2 when not integral) and must fit 32 bits (26823).
 */
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { integerOf, isNumber } from '../../storage/values/numeric.js';
import { formatValue } from '../../storage/values/format.js';
import type { CommandDefinition } from '../types.js';

/** The `killOp` command. */
export const killOp: CommandDefinition = {
  name: 'killOp',
  adminOnly: true,
  args: 'lenient',
  help: 'Kill an op',
  run(_ctx, cmd) {
    const op = cmd.op;
    if (op === undefined) throw new CommandError('NoSuchKey', 'Missing expected field "op"');
    if (!isNumber(op)) throw new CommandError('TypeMismatch', `Expected field "op" to have numeric type, but found ${bsonTypeOf(op)}`);
    const n = integerOf(op, 'exact');
    if (n === null || n === undefined || n > 9223372036854775807n || n < -9223372036854775808n) {
      throw new CommandError('BadValue', `Expected field "op" to have a value exactly representable as a 64-bit integer, but found op: ${formatValue(op)}`);
    }
    if (n > 2147483647n || n < -2147483648n) throw new CommandError(26823, `invalid op : ${n}. Op ID cannot be represented with 32 bits`);
    return { info: 'attempting to kill op' };
  },
};
