/**
 * The gate of `txnNumber`, `autocommit` and `startTransaction` (sessions/retryable_write.ts):
 * a standalone refuses them (20); the replica set refuses transactions (238), a txnNumber
 * without an lsid (72), a mistyped txnNumber (14) and a txnNumber on a command that is not a
 * retryable write (50768), and returns the session and txnNumber of a retryable write.
 */
import { describe, expect, it } from 'vitest';
import { Binary, Long, UUID } from '../../../src/bson/library.js';
import { checkTransactionArguments } from '../../../src/commands/sessions/retryable_write.js';
import type { CommandContext, CommandDefinition } from '../../../src/commands/types.js';
import { expectCommandError } from '../aggregation/helpers.js';

function ctxOf(replSetName: string | null): CommandContext {
  return { server: { settings: { replSetName } }, now: () => 0 } as unknown as CommandContext;
}
const def = (name: string) => ({ name }) as CommandDefinition;
const lsid = () => ({ id: new Binary(new UUID().buffer, 4) });

describe('checkTransactionArguments', () => {
  it('passes a command without transaction arguments', () => {
    expect(checkTransactionArguments(ctxOf('rs0'), def('insert'), { insert: 'c' })).toBeUndefined();
    expect(checkTransactionArguments(ctxOf(null), def('insert'), { insert: 'c' })).toBeUndefined();
  });

  it.each([[{ txnNumber: Long.fromNumber(1) }], [{ autocommit: false }], [{ startTransaction: true }]])('a standalone answers 20 to %o', (extra) => {
    expectCommandError(() => checkTransactionArguments(ctxOf(null), def('insert'), { insert: 'c', lsid: lsid(), ...extra }), 20, 'Transaction numbers are only allowed on a replica set member or mongos');
  });

  it('the set refuses a txnNumber without lsid or of the wrong type, and on a command that is not a write', () => {
    const ctx = ctxOf('rs0');
    expectCommandError(() => checkTransactionArguments(ctx, def('insert'), { insert: 'c', txnNumber: Long.fromNumber(1) }), 72, 'Transaction number requires a session ID to also be specified');
    expectCommandError(() => checkTransactionArguments(ctx, def('insert'), { insert: 'c', lsid: lsid(), txnNumber: 'x' }), 14, "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'string', expected type 'long'");
    expectCommandError(
      () => checkTransactionArguments(ctx, def('count'), { count: 'c', lsid: lsid(), txnNumber: Long.fromNumber(1) }),
      50768,
      'txnNumber may only be provided for multi-document transactions and retryable write commands. autocommit:false was not provided, and count is not a retryable write command.',
    );
  });

  it('returns the session and txnNumber of a retryable write', () => {
    const id = lsid();
    const write = checkTransactionArguments(ctxOf('rs0'), def('update'), { update: 'c', lsid: id, txnNumber: Long.fromNumber(7) });
    expect(write?.txnNumber).toBe(7n);
    expect(write?.session.id).toBe(id.id);
  });
});
