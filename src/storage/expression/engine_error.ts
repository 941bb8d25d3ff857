/**
 * An evaluation error whose code depends on which of mongod's engines evaluates the expression.
 * mongod 8.2 runs a `$group` that reads a collection directly (after the stages the query layer
 * absorbs) in its slot-based engine (SBE), whose arithmetic raises its own codes for the same
 * failures: `$divide` by zero is 4848401 there (2 BadValue in the classic engine), `$mod` by
 * zero 4848403 (16610, or 5733415 for a Decimal128). The classic code is the error's `code`;
 * `sbeCode` is what SBE answers, with the same message.
 */
import { CommandError } from '../../errors/command_error.js';
import type { ErrorCodeName } from '../../errors/codes.js';

/** A `CommandError` that SBE raises under another code. */
export class EngineDependentError extends CommandError {
  /** The code mongod's slot-based engine raises for the same failure. */
  readonly sbeCode: number;

  constructor(code: number | ErrorCodeName, sbeCode: number, message: string) {
    super(code, message);
    this.sbeCode = sbeCode;
  }
}

/**
 * `err` as SBE raises it: an `EngineDependentError` under its `sbeCode`, anything else as it is.
 * The caller is a stage that mongod runs in SBE.
 */
export function asSbeError(err: unknown): unknown {
  return err instanceof EngineDependentError ? new CommandError(err.sbeCode, err.message) : err;
}
