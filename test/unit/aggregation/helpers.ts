/** Shared assertions for the projection, update and aggregation unit tables. */
import { expect } from 'vitest';
import { EJSON } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';

/** Canonical Extended JSON: keeps BSON types (Int32 vs Double vs Int64) and field order. */
export function canonical(v: unknown): string {
  return EJSON.stringify(v as never, { relaxed: false });
}

/** Asserts exact equality: same values, same BSON types, same field order. */
export function expectExact(actual: unknown, expected: unknown): void {
  expect(canonical(actual)).toBe(canonical(expected));
}

/** Asserts that `fn` throws a CommandError with exactly this code and message. */
export function expectCommandError(fn: () => unknown, code: number, message: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(CommandError);
  const e = caught as CommandError;
  expect({ code: e.code, message: e.message }).toEqual({ code, message });
}
