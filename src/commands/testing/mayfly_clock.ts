/** `mayflyClock`: the server's notion of now (test clock, TTL.md). Admin only. */
import { Long, type Document } from '../../bson/library.js';
import type { Clock } from '../../ttl/clock.js';
import type { CommandDefinition } from '../types.js';

/** The reply fields describing `clock`: its mode, now (Date and ms) and offset from system time. */
export function clockReport(clock: Clock): Document {
  const now = clock.now();
  return {
    clock: clock.mode,
    now: new Date(now),
    nowMillis: Long.fromNumber(now),
    offsetMillis: Long.fromNumber(clock.offsetMillis),
  };
}

/** The `mayflyClock` command: `db.adminCommand({ mayflyClock: 1 })`. */
export const mayflyClock: CommandDefinition = {
  name: 'mayflyClock',
  adminOnly: true,
  args: {},
  help: "reports the server clock: { clock: 'system' | 'manual', now, nowMillis, offsetMillis }",
  run(ctx) {
    return clockReport(ctx.server.clock);
  },
};
