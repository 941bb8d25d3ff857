/** `top` (top_command.cpp): per-namespace operation counts and times (_internal/top_counters.ts). */
import { Long, type Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';
import { TOP_FIELDS, topUsage } from './_internal/top_counters.js';

/** mongod's `appendNumber`: an Int32 when it fits, else an Int64. */
function appendNumber(n: number): number | Long {
  return n <= 2147483647 ? n : Long.fromNumber(n);
}

/** The `top` command. */
export const top: CommandDefinition = {
  name: 'top',
  adminOnly: true,
  args: 'lenient',
  help: 'usage by collection, in micros ',
  run(ctx) {
    const totals: Document = { note: 'all times in microseconds' };
    const table = topUsage(ctx.server);
    for (const ns of [...table.keys()].sort()) {
      const usage = table.get(ns)!;
      const out: Document = {};
      for (const field of TOP_FIELDS) out[field] = { time: appendNumber(usage[field].time), count: appendNumber(usage[field].count) };
      totals[ns] = out;
    }
    return { totals };
  },
};
