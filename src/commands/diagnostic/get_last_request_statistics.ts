/**
 * `getLastRequestStatistics` of Azure Cosmos DB for MongoDB: the request charge of the previous
 * request on this connection (Microsoft's "Find the request unit charge" page):
 *
 *   { _t: 'GetRequestStatisticsResponse', ok: 1, CommandName: 'find', RequestCharge: 10.1,
 *     RequestDurationInMilliSeconds: 7.2, ActivityId: '...' }
 *
 * Only in Cosmos DB mode (src/cosmos/request_units/); mongod has no such command, so with
 * `--compat mongodb` it is 59 CommandNotFound, as mongod answers it.
 */
import { Double } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { LAST_REQUEST_STATISTICS, requestUnitsOf } from '../../cosmos/request_units/meter.js';
import type { CommandDefinition } from '../types.js';

/** The `getLastRequestStatistics` command: `db.runCommand({ getLastRequestStatistics: 1 })`. */
export const getLastRequestStatistics: CommandDefinition = {
  name: LAST_REQUEST_STATISTICS,
  args: {},
  help: 'Cosmos DB mode: the request charge (RU) and duration of the previous request on this connection',
  run(ctx) {
    const meter = requestUnitsOf(ctx.server);
    if (meter === undefined) throw new CommandError('CommandNotFound', `no such command: '${LAST_REQUEST_STATISTICS}'`);
    const last = meter.lastRequest(ctx.connection);
    return {
      _t: 'GetRequestStatisticsResponse',
      CommandName: last?.commandName ?? '',
      RequestCharge: new Double(last?.requestCharge ?? 0),
      RequestDurationInMilliSeconds: new Double(last?.durationMs ?? 0),
      ActivityId: last?.activityId ?? '',
    };
  },
};
