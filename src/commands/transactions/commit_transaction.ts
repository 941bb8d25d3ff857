/**
 * `commitTransaction`: commits the session's transaction (commands/sessions/transaction_statement.ts
 * checked the session and found it): its changes go onto the head as one write unit, told to the
 * observers in order with the session (`inTransaction: true`). Retryable: committing a committed
 * transaction again answers ok; an aborted one is 251 NoSuchTransaction.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { serverSnapshots, transactionOf } from '../sessions/transaction_statement.js';
import { writeConflict } from '../../storage/write/snapshots.js';
import type { CommandDefinition } from '../types.js';

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
    if (txn.state === 'committed') return {};
    if (txn.state === 'aborted') throw txn.abortedError();
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
    ctx.server.catalog.writes.commitTransaction(txn.ops, { lsid: cmd.lsid as Document, txnNumber: txn.txnNumber, inTransaction: true });
    return {};
  },
};
