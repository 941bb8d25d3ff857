/**
 * `removeQuerySettings` (query_settings_cmds.cpp): removes the settings of one query shape,
 * named by a representative query or by its `queryShapeHash`; a shape without settings is no
 * error.
 */
import type { CommandDefinition } from '../types.js';
import { parseShapeTarget, querySettingsTable } from './_internal.js';

/** The `removeQuerySettings` command. */
export const removeQuerySettings: CommandDefinition = {
  name: 'removeQuerySettings',
  adminOnly: true,
  args: {},
  help: 'Removes the query settings of a query shape.',
  run(ctx, cmd) {
    const target = parseShapeTarget('removeQuerySettings', cmd.removeQuerySettings, false);
    querySettingsTable(ctx.server).delete(target.hash);
    return {};
  },
};
