/**
 * `commitTransaction`: commits the session's transaction (commands/sessions/transaction_statement.ts
 * checked the session and found it): its changes go onto the head as one write unit, told to the
 * observers in order with the session (`inTransaction: true`), after the collections and indexes
 * it created; a collection it created whose name another took meanwhile fails it with 112. A
 * write concern the one-node set cannot satisfy is a writeConcernError (_internal/write_concern_wait.ts). Retryable: committing a committed
 * transaction again answers ok; an aborted one is 251 NoSuchTransaction.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { serverSnapshots, transactionOf } from '../sessions/transaction_statement.js';
import { writeConflict } from '../../storage/write/snapshots.js';
import type { CommandDefinition } from '../types.js';
import { writeConcernWaitError } from './_internal/write_concern_wait.js';

/** The reply once the write concern was waited for: `{}`, or its writeConcernError. */
function waited(cmd: Document): Document {
  const writeConcernError = writeConcernWaitError(cmd, 'CommitTransaction');
  return writeConcernError === undefined ? {} : { writeConcernError };
}

/** The `commitTransaction` command. */
export const commitTransaction: CommandDefinition = {
  name: 'commitTransaction',
  idlName: 'CommitTransaction',
  adminOnly: true,
  args: { commitTimestamp: { type: 'any' }, recoveryToken: { type: 'object' } },
  concerns: { writeConcern: true },
  help: 'commits a transaction',
  run(ctx, cmd) {
    const txn = transactionOf(cmd);
    if (txn === undefined) throw new CommandError('CommandFailed', 'commitTransaction must be run within a transaction');
    if (txn.state === 'committed') return waited(cmd);
    if (txn.state === 'aborted') throw txn.abortedError();
    const catalog = ctx.server.catalog;
    // A collection it created whose name was taken since: 112, nothing of it committed.
    if (txn.collectionNameTaken(catalog)) {
      txn.abort();
      throw writeConflict(true);
    }
    const view = txn.view;
    txn.view = null;
    if (view !== null) {
      try {
        serverSnapshots(ctx).commit(view, () => ctx.server.logicalClock.now());
      } catch {
        txn.state = 'aborted';
        throw writeConflict(true);
      }
    }
    txn.state = 'committed';
    // Its collections join the catalog for good; the observers hear of them (and of the
    // indexes built on them) before the writes, in order.
    for (const { coll } of txn.createdCollections) catalog.attach(coll);
    for (const { coll, options } of txn.createdCollections) catalog.writes.ddl('onCreateCollection', { ns: coll.ns, collection: coll, options });
    for (const { coll, specs } of txn.createdIndexes) catalog.writes.ddl('onCreateIndexes', { ns: coll.ns, collection: coll, specs });
    catalog.writes.commitTransaction(txn.ops, { lsid: cmd.lsid as Document, txnNumber: txn.txnNumber, inTransaction: true });
    return waited(cmd);
  },
};
