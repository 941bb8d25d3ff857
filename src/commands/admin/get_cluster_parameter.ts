/**
 * `getClusterParameter` (get_cluster_parameter_command.cpp): the values of named cluster-wide
 * parameters (a name, a list of names, or `"*"` for all), as `{_id, clusterParameterTime, ...}`.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';
import { adminState } from './_internal/admin_state.js';
import { CLUSTER_PARAMETERS, clusterParameterDocument } from './_internal/cluster_parameters.js';

/** The `getClusterParameter` command. */
export const getClusterParameter: CommandDefinition = {
  name: 'getClusterParameter',
  adminOnly: true,
  target: {
    type: ['string', 'array'],
    required: true,
    parse(value, field, idl) {
      if (typeof value === 'string') return;
      if (!Array.isArray(value)) throw typeMismatch(`${idl}.${field}`, value, ['string', 'array']);
      value.forEach((item, i) => {
        if (typeof item !== 'string') throw typeMismatch(`${idl}.${field}.${i}`, item, ['string']);
      });
    },
  },
  args: 'lenient',
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'Get majority-written cluster parameter value(s) on the replica set or cluster',
  run(ctx, cmd) {
    const target = cmd.getClusterParameter as string | string[];
    const stored = adminState(ctx.server).clusterParameters;
    let names: string[];
    if (target === '*') names = [...CLUSTER_PARAMETERS.keys()];
    else {
      names = typeof target === 'string' ? [target] : target;
      if (names.length === 0) throw new CommandError('BadValue', 'getClusterParameter requires at least one parameter name');
      for (const name of names) {
        if (!CLUSTER_PARAMETERS.has(name)) throw new CommandError('NoSuchKey', `Unknown server parameter: ${name}`);
      }
    }
    const clusterParameters: Document[] = names.map((name) => clusterParameterDocument(name, stored.get(name)));
    return { clusterParameters };
  },
};
