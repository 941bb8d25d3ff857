/** `setParameter`: changes runtime-settable parameters; replies with the first one's old value. */
import { CommandError } from '../../errors/command_error.js';
import { GENERIC_ARGUMENTS } from '../args.js';
import type { CommandDefinition } from '../types.js';

/** The `setParameter` command. */
export const setParameter: CommandDefinition = {
  name: 'setParameter',
  adminOnly: true,
  args: 'lenient',
  help: 'set administrative option(s)\n{ setParameter:1, <param>:<value> }',
  run(ctx, cmd) {
    const names = Object.keys(cmd).filter((k) => k !== 'setParameter' && !GENERIC_ARGUMENTS.has(k));
    if (names.length === 0) throw new CommandError('InvalidOptions', 'no option found to set, use help:true to see options ');
    const table = ctx.server.parameters;
    // Validate every name before changing anything.
    for (const name of names) {
      const param = table.lookup(name);
      if (!param) throw new CommandError('InvalidOptions', `attempted to set unrecognized parameter [${name}], use help:true to see options `);
      if (!param.settableAtRuntime) throw new CommandError('IllegalOperation', `not allowed to change [${name}] at runtime`);
    }
    let was: unknown;
    names.forEach((name, i) => {
      const old = table.setAtRuntime(name, cmd[name]);
      if (i === 0) was = old;
    });
    return { was };
  },
};
