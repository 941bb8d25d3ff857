/**
 * `abortTransaction`: aborts the session's transaction (commands/sessions/transaction_statement.ts
 * found it): its changes are forgotten, no observer is told. An aborted transaction answers 251
 * NoSuchTransaction, a committed one 256 TransactionCommitted.
 */
import { CommandError } from '../../errors/command_error.js';
import { transactionOf } from '../sessions/transaction_statement.js';
import type { CommandDefinition } from '../types.js';
import { writeConcernWaitError } from './_internal/write_concern_wait.js';

/** The `abortTransaction` command. */
export const abortTransaction: CommandDefinition = {
  name: 'abortTransaction',
  idlName: 'AbortTransaction',
  adminOnly: true,
  args: { recoveryToken: { type: 'object' } },
  concerns: { writeConcern: true },
  help: 'aborts a transaction',
  run(_ctx, cmd) {
    const txn = transactionOf(cmd);
    if (txn === undefined) throw new CommandError('CommandFailed', 'abortTransaction must be run within a transaction');
    if (txn.state === 'committed') throw txn.committedError();
    if (txn.state === 'aborted') throw txn.abortedError();
    txn.abort();
    const writeConcernError = writeConcernWaitError(cmd, 'AbortTransaction');
    return writeConcernError === undefined ? {} : { writeConcernError };
  },
};
