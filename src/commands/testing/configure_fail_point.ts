/**
 * `configureFailPoint` (mongo/src/mongo/db/commands/fail_point_cmd.cpp): sets a fail point's
 * mode and data; replies with how many times it has fired so far (`count`). Admin only; a test
 * command, as mongod's with `enableTestCommands` (always on in Mayfly). The fail points and what
 * they do are in `src/server/fail_points.ts`; Mayfly has `failCommand`, any other name is 266
 * FailPointSetFailed as in mongod. In Cosmos DB mode there is also `cosmosThrottle`
 * (src/cosmos/request_units/injection.ts), whose data is checked here.
 */
import { appendNumber } from '../../storage/values/numeric.js';
import { CommandError } from '../../errors/command_error.js';
import { failPointsOf, parseFailPointSettings } from '../../server/fail_points.js';
import { COSMOS_THROTTLE, parseThrottleInjection } from '../../cosmos/request_units/injection.js';
import type { CommandDefinition } from '../types.js';

/** The `configureFailPoint` command: `db.adminCommand({ configureFailPoint: 'failCommand', mode, data })`. */
export const configureFailPoint: CommandDefinition = {
  name: 'configureFailPoint',
  adminOnly: true,
  args: 'lenient',
  help: 'modifies the settings of a fail point',
  run(ctx, cmd) {
    const name = typeof cmd.configureFailPoint === 'string' ? cmd.configureFailPoint : '';
    const failPoint = name === COSMOS_THROTTLE && ctx.server.settings.compat !== 'cosmos' ? undefined : failPointsOf(ctx.server).find(name);
    if (failPoint === undefined) throw new CommandError('FailPointSetFailed', `${name} not found`);
    const settings = parseFailPointSettings(cmd);
    if (name === COSMOS_THROTTLE && settings.mode !== 'off') parseThrottleInjection(settings.data);
    const count = failPoint.configure(settings);
    ctx.server.logger.warn({ failPointName: name, mode: settings.mode, data: settings.data }, 'Set failpoint');
    return { count: appendNumber(BigInt(count)) };
  },
};
