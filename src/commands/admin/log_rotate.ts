/**
 * `logRotate` (log_rotate.idl): rotates the server log (`1`, any number or bool, or `"server"`);
 * `"audit"` is the audit log, which a server without auditing does not have (4, as any other
 * name). Mayfly's log goes to a stream it does not own (stdout or the embedder's logger), so
 * there is no file to rename: the command checks its argument and answers as mongod does.
 */
import { CommandError } from '../../errors/command_error.js';
import { isNumber } from '../../storage/values/numeric.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';

/** The `logRotate` command. */
export const logRotate: CommandDefinition = {
  name: 'logRotate',
  adminOnly: true,
  target: {
    type: ['number', 'bool', 'string'],
    parse(value, field, idl) {
      if (typeof value === 'boolean' || isNumber(value)) return;
      if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string', 'long', 'int', 'decimal', 'double', 'bool']);
      if (value !== 'server') throw new CommandError('NoSuchKey', `Unknown log type for rotate: ${value}`);
    },
  },
  args: {},
  help: 'logRotate: rotate the server log (and the audit log, where there is one)',
  run: () => ({}),
};
