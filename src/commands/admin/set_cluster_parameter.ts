/**
 * `setClusterParameter` (set_cluster_parameter_command.cpp): sets one cluster-wide parameter
 * (_internal/cluster_parameters.ts) to a new value, stamped with a new `clusterParameterTime`.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../../storage/values/paths.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';
import { adminState } from './_internal/admin_state.js';
import { CLUSTER_PARAMETERS } from './_internal/cluster_parameters.js';

/** Throws 52 for a `$`-prefixed field name anywhere in `value`. */
function refuseDollarFields(value: Document): void {
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('$')) throw new CommandError('DollarPrefixedFieldName', `Field name '${key}' is not allowed: it is prefixed with '$'`);
    if (isDocument(v)) refuseDollarFields(v);
  }
}

/** The `setClusterParameter` command. */
export const setClusterParameter: CommandDefinition = {
  name: 'setClusterParameter',
  adminOnly: true,
  target: {
    type: 'object',
    required: true,
    parse(value, field, idl) {
      if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
      if (!isDocument(value)) throw typeMismatch(`${idl}.${field}`, value, ['object']);
    },
  },
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'Set cluster parameter on replica set or cluster',
  run(ctx, cmd) {
    const request = cmd.setClusterParameter as Document;
    const names = Object.keys(request);
    if (names.length > 1) throw new CommandError('InvalidOptions', 'Only one cluster parameter can be set at a time');
    const name = names[0] ?? '';
    const param = CLUSTER_PARAMETERS.get(name);
    if (param === undefined) throw new CommandError('NoSuchKey', `Unknown Cluster Parameter ${name}`);
    const value = request[name];
    if (!isDocument(value)) throw new CommandError('BadValue', `Cluster parameter value must be an object`);
    refuseDollarFields(value);
    const parsed = param.parse(value);
    adminState(ctx.server).clusterParameters.set(name, { _id: name, clusterParameterTime: ctx.server.logicalClock.tick(), ...parsed });
    return {};
  },
};
