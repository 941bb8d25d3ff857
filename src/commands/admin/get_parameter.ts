/** `getParameter`: server parameters by name, `'*'` for all, `{ showDetails, allParameters }`. */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { GENERIC_ARGUMENTS } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `getParameter` command. */
export const getParameter: CommandDefinition = {
  name: 'getParameter',
  adminOnly: true,
  args: 'lenient',
  help: 'get administrative option(s)\nexample:\n{ getParameter:1, notablescan:1 }',
  run(ctx, cmd) {
    const target = cmd.getParameter;
    let all = target === '*';
    let showDetails = false;
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) {
      const opts = target as Document;
      showDetails = opts.showDetails === true;
      all = opts.allParameters === true;
    }
    const names = Object.keys(cmd).filter((k) => k !== 'getParameter' && !GENERIC_ARGUMENTS.has(k));
    const reply = ctx.server.parameters.describe(all ? '*' : names, showDetails);
    if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
    return reply;
  },
};
