/**
 * `$currentOp` (document_source_current_op.cpp): the operations in progress on this server, as
 * `currentOp` reports them, first stage of an `{aggregate: 1}` on the admin database only (73
 * otherwise), at read concern `local` only. Its options are booleans (14 otherwise, no
 * coercion): `allUsers`, `idleConnections`, `idleCursors`, `idleSessions`, `localOps`,
 * `targetAllNodes` (true only on a router: 9 here) and the undocumented `truncateOps`; any other
 * field is 40415. A standalone runs one operation at a time, so the operations in progress are
 * the aggregate running the stage itself (with `idleCursors`, the open cursors too).
 */
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { CurrentOpOptions } from '../runtime.js';
import type { StageDefinition } from '../stage.js';

const OPTIONS = ['allUsers', 'idleConnections', 'idleCursors', 'idleSessions', 'localOps', 'targetAllNodes', 'truncateOps'] as const;

/** `{$currentOp: {allUsers?, idleConnections?, idleCursors?, idleSessions?, localOps?, targetAllNodes?, truncateOps?}}`. */
export const currentOp: StageDefinition = {
  name: '$currentOp',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'database', allowedIn: {}, readConcern: 'localOnly' },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError('TypeMismatch', `$currentOp options must be specified in an object, but found: ${bsonTypeOf(spec)}`);
    const options: { -readonly [K in keyof CurrentOpOptions]: CurrentOpOptions[K] } = {
      allUsers: false,
      idleConnections: false,
      idleCursors: false,
      idleSessions: true,
      localOps: false,
      truncateOps: false,
    };
    let targetAllNodes = false;
    for (const [key, value] of Object.entries(spec)) {
      if (!(OPTIONS as readonly string[]).includes(key)) throw new CommandError('IDLUnknownField', `BSON field '$currentOp.${key}' is an unknown field.`);
      if (typeof value !== 'boolean') {
        throw new CommandError('TypeMismatch', `The '${key}' parameter of the $currentOp stage must be a boolean value, but found: ${bsonTypeOf(value)}`);
      }
      if (key === 'targetAllNodes') targetAllNodes = value;
      else options[key as keyof CurrentOpOptions] = value;
    }
    if (targetAllNodes && options.localOps) {
      throw new CommandError('FailedToParse', 'The localOps and targetAllNodes options of the $currentOp stage are mutually incompatible');
    }
    if (targetAllNodes) throw new CommandError('FailedToParse', '$currentOp supports targetAllNodes parameter only for sharded clusters');
    if (ctx.runtime.db !== 'admin' || ctx.collection !== null) {
      throw new CommandError('InvalidNamespace', "$currentOp must be run against the 'admin' database with {aggregate: 1}");
    }
    const server = ctx.runtime.server;
    return {
      *run() {
        yield* server.currentOps(options);
      },
    };
  },
};
