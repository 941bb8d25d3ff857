/** What a unit test's call threw: a CommandError's code and message, or any error. */
import { CommandError } from '../../src/errors/command_error.js';

/** The CommandError `fn` throws; fails the test when it throws nothing or something else. */
export function thrownCommandError(fn: () => unknown): CommandError {
  try {
    fn();
  } catch (err) {
    if (err instanceof CommandError) return err;
    throw new Error(`expected a CommandError, got ${String(err)}`);
  }
  throw new Error('expected a CommandError, nothing was thrown');
}

/** `[code, message]` of the CommandError `fn` throws. */
export function errorOf(fn: () => unknown): [number, string] {
  const e = thrownCommandError(fn);
  return [e.code, e.message];
}

/** The error `fn` throws, or undefined when it returns. */
export function thrownBy(fn: () => unknown): Error | undefined {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  return undefined;
}
