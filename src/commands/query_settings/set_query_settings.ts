/**
 * `setQuerySettings` (query_settings_cmds.cpp): sets the settings of one query shape, named by a
 * representative query (`{find | aggregate | distinct: ..., $db, ...}`) or by its
 * `queryShapeHash`. The new settings are merged into those already set for the shape; what
 * remains must not be only defaults (7746604). Replies with the shape's configuration.
 */
import { CommandError } from '../../errors/command_error.js';
import type { Document } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';
import { mergeSettings, parseSettings, parseShapeTarget, querySettingsTable } from './_internal.js';

/** The `setQuerySettings` command. */
export const setQuerySettings: CommandDefinition = {
  name: 'setQuerySettings',
  adminOnly: true,
  args: { settings: { type: 'any' } },
  help: 'Sets the query settings of a query shape.',
  run(ctx, cmd) {
    const target = parseShapeTarget('setQuerySettings', cmd.setQuerySettings, true);
    if (cmd.settings === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'setQuerySettings.settings' is missing but a required field");
    const settings = parseSettings(cmd.settings);
    const table = querySettingsTable(ctx.server);
    const existing = table.get(target.hash);
    const merged = mergeSettings(existing?.settings, settings);
    const config = existing ?? { queryShapeHash: target.hash, settings: merged };
    config.settings = merged;
    if (target.query !== undefined) {
      config.representativeQuery = target.query;
      config.debugQueryShape = target.shape;
    }
    table.set(target.hash, config);
    const reply: Document = { queryShapeHash: config.queryShapeHash, settings: config.settings };
    if (config.representativeQuery !== undefined) reply.representativeQuery = config.representativeQuery;
    return reply;
  },
};
