/**
 * mongod's `FieldPath` validation (mongo/src/mongo/db/pipeline/field_path.cpp): the dotted
 * paths of projections, `$addFields`, `$unwind` and field-path expressions.
 */
import { CommandError } from '../../errors/command_error.js';

const DOTS_AND_DOLLARS_HINT = ' Consider using $getField or $setField.';

/** `$`-prefixed names a FieldPath accepts (DBRef fields). */
const ALLOWED_DOLLAR_FIELDS = new Set(['$id', '$ref', '$db']);

/** Validates one component of a path (`FieldPath::uassertValidFieldName`). */
export function assertValidFieldName(name: string): void {
  if (name.length === 0) throw new CommandError(15998, 'FieldPath field names may not be empty strings.');
  if (name.charCodeAt(0) === 36 /* $ */ && !ALLOWED_DOLLAR_FIELDS.has(name)) {
    throw new CommandError(16410, `FieldPath field names may not start with '$'.${DOTS_AND_DOLLARS_HINT}`);
  }
  if (name.includes('\0')) {
    throw new CommandError(16411, `FieldPath field names may not contain '\\0'.${DOTS_AND_DOLLARS_HINT}`);
  }
  if (name.includes('.')) {
    throw new CommandError(16412, `FieldPath field names may not contain '.'.${DOTS_AND_DOLLARS_HINT}`);
  }
}

/** Validates a dotted path and returns its components (`FieldPath::FieldPath`). */
export function parseFieldPath(path: string): string[] {
  if (path.length === 0) throw new CommandError(40352, 'FieldPath cannot be constructed with empty string');
  if (path.endsWith('.')) throw new CommandError(40353, "FieldPath must not end with a '.'.");
  const parts = path.split('.');
  for (const part of parts) assertValidFieldName(part);
  return parts;
}

/** Rethrows `err` with mongod's `addContext` prefix (`<context> :: caused by :: <reason>`). */
export function withContext<T>(context: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CommandError) {
      throw new CommandError(err.code, `${context} :: caused by :: ${err.message}`, err.extra);
    }
    throw err;
  }
}
