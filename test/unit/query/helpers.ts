import type { Document } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { compileFilter } from '../../../src/storage/query/compile_filter.js';
import type { FilterOptions } from '../../../src/storage/query/types.js';

/** Whether `doc` matches `filter`. */
export function matches(doc: Document, filter: Document): boolean {
  return compileFilter(filter)(doc);
}

/** The code and message `fn` throws (a CommandError), or null. */
export function thrown(fn: () => unknown): { code: number; codeName: string; message: string } | null {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof CommandError)) throw e;
    return { code: e.code, codeName: e.codeName, message: e.message };
  }
  return null;
}

/** The code and message compiling `filter` throws. */
export function compileError(filter: Document, options?: FilterOptions): { code: number; message: string } | null {
  const r = thrown(() => compileFilter(filter, options));
  return r === null ? null : { code: r.code, message: r.message };
}
