/**
 * `replSetStepDown`: a one-node set has no electable secondary to hand over to, so mongod answers
 * 262 ExceededTimeLimit after waiting `secondaryCatchUpPeriodSecs`; the member stays primary.
 * `force: true` (step down with nobody to take over, unwritable until re-elected) is not modelled.
 */
import { CommandError } from '../../errors/command_error.js';
import { isNumber } from '../../storage/values/numeric.js';
import type { CommandDefinition } from '../types.js';
import { requireReplSet } from './repl_set.js';

/** The `replSetStepDown` command. */
export const replSetStepDown: CommandDefinition = {
  name: 'replSetStepDown',
  adminOnly: true,
  target: { type: 'number' },
  args: { force: { type: 'bool' }, secondaryCatchUpPeriodSecs: { type: 'number' } },
  help: 'Step down as primary.',
  run(ctx, cmd) {
    requireReplSet(ctx);
    if (cmd.force === true) throw new CommandError('NotImplemented', 'replSetStepDown with force: true is not supported by Mayfly: the one member stays primary');
    const stepDownSecs = isNumber(cmd.replSetStepDown) ? Number(cmd.replSetStepDown) : 60;
    if (stepDownSecs <= 0) throw new CommandError('BadValue', `replSetStepDown must be a positive number, got ${stepDownSecs}`);
    throw new CommandError('ExceededTimeLimit', `No electable secondaries caught up as of ${new Date(ctx.now()).toISOString()}. Please use the replSetStepDown command with the argument {force: true} to force node to step down.`);
  },
};
