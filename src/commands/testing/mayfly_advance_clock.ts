/**
 * `mayflyAdvanceClock`: moves the server clock forward by a number of seconds (the only way a
 * `--clock manual` clock moves; an offset on the system clock otherwise). Admin only.
 * Expiry that depends on the clock (Cosmos visibility) follows at once; deletions wait for a
 * reaper pass (`mayflyRunTtlPass`).
 */
import { CommandError } from '../../errors/command_error.js';
import { toDouble } from '../../storage/values/numeric.js';
import type { CommandDefinition } from '../types.js';
import { clockReport } from './mayfly_clock.js';

/** The `mayflyAdvanceClock` command: `db.adminCommand({ mayflyAdvanceClock: <seconds> })`. */
export const mayflyAdvanceClock: CommandDefinition = {
  name: 'mayflyAdvanceClock',
  adminOnly: true,
  target: { type: 'number' },
  args: {},
  help: 'test clock: moves the server clock forward by <seconds> (fractions allowed, ms precision)',
  run(ctx, cmd) {
    const seconds = toDouble(cmd.mayflyAdvanceClock);
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new CommandError('BadValue', `mayflyAdvanceClock takes a finite, non-negative number of seconds, not ${String(seconds)}`);
    }
    ctx.server.clock.advance(Math.round(seconds * 1000));
    return clockReport(ctx.server.clock);
  },
};
