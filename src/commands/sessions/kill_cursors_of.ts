/** Closes the cursors a session kill or end returned (ids the cursor manager may have dropped already). */
import { Long } from '../../bson/library.js';
import type { CommandContext } from '../types.js';

/** Kills each cursor of `ids` that is still open. */
export function killSessionCursors(ctx: CommandContext, ids: readonly bigint[]): void {
  for (const id of ids) ctx.server.cursors.kill(Long.fromBigInt(id));
}
