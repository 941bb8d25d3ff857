/**
 * The failures of a conversion (ExpressionConvert in mongo/src/mongo/db/pipeline/expression.cpp):
 * every one is 241 ConversionFailure, the kind `onError` replaces; the messages are mongod's.
 */
import { CommandError } from '../../../../../errors/command_error.js';
import { typeName } from '../../../value.js';

/** mongod's ConversionFailure code. */
export const CONVERSION_FAILURE = 241;

/** A 241 with `message`. */
export function conversionFailure(message: string): CommandError {
  return new CommandError(CONVERSION_FAILURE, message);
}

/** "Unsupported conversion from <type> to <type> in $convert with no onError value". */
export function unsupported(input: unknown, target: string): CommandError {
  return conversionFailure(`Unsupported conversion from ${typeName(input)} to ${target} in $convert with no onError value`);
}

/** True for the errors `onError` replaces. */
export function isConversionFailure(err: unknown): boolean {
  return err instanceof CommandError && err.code === CONVERSION_FAILURE;
}
