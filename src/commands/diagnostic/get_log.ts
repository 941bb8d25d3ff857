/** `getLog`: recent log lines ('global'), startup warnings, or the list of logs ('*'). */
import { CommandError } from '../../errors/command_error.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';

/** The `getLog` command. */
export const getLog: CommandDefinition = {
  name: 'getLog',
  adminOnly: true,
  target: {
    type: 'string',
    required: true,
    parse(value, field, idl) {
      if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
      if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
    },
  },
  args: {},
  help: '{ getLog : \'*\' }  OR { getLog : \'global\' }',
  run(ctx, cmd) {
    const which = cmd.getLog;
    if (which === '*') return { names: ['global', 'startupWarnings'] };
    if (which === 'startupWarnings') return { totalLinesWritten: 0, log: [] };
    if (which === 'global') {
      const lines = ctx.server.recentLog;
      return { totalLinesWritten: lines.length, log: [...lines] };
    }
    throw new CommandError('OperationFailed', `No log named '${String(which)}'`);
  },
};
