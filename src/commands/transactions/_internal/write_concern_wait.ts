/**
 * Waiting for the write concern of commitTransaction/abortTransaction on Mayfly's one-node
 * replica set (mongod's `waitForWriteConcern`): the one member is the primary, so `w: 1`,
 * `w: 'majority'` and `j` are satisfied at once; `w` above 1 can never be (100
 * UnsatisfiableWriteConcern "Not enough data-bearing nodes") and a mode other than `majority`
 * names no tag set of the configuration (79 UnknownReplWriteConcern). Either is a
 * `writeConcernError` of an otherwise successful reply, with the write concern in force in its
 * `errInfo`, as mongod answers it.
 */
import type { Document } from '../../../bson/library.js';
import { ErrorCodes } from '../../../errors/codes.js';
import { parseWriteConcern } from '../../read_write_concern.js';

/** The data-bearing members of the replica set. */
const MEMBERS = 1;

/** The `writeConcernError` of `cmd`'s write concern on the one-node replica set, if any. */
export function writeConcernWaitError(cmd: Document, idl: string): Document | undefined {
  const wc = parseWriteConcern(idl, cmd.writeConcern);
  if (wc === undefined || wc.w === undefined) return undefined;
  let error: { code: number; codeName: string; errmsg: string } | undefined;
  if (typeof wc.w === 'number' && wc.w > MEMBERS) {
    error = { code: ErrorCodes.UnsatisfiableWriteConcern, codeName: 'UnsatisfiableWriteConcern', errmsg: 'Not enough data-bearing nodes' };
  } else if (typeof wc.w === 'string' && wc.w !== 'majority' && wc.w !== '') {
    error = {
      code: ErrorCodes.UnknownReplWriteConcern,
      codeName: 'UnknownReplWriteConcern',
      errmsg: `No write concern mode named '${wc.w}' found in replica set configuration`,
    };
  }
  if (error === undefined) return undefined;
  const inForce: Document = { w: wc.w, wtimeout: wc.wtimeoutMs ?? 0 };
  if (wc.j !== undefined) inForce.j = wc.j;
  inForce.provenance = 'clientSupplied';
  return { ...error, errInfo: { writeConcern: inForce } };
}
