/**
 * The errors a command can fail with. Handlers throw `CommandError`; `dispatch` turns it into
 * `{ ok: 0, errmsg, code, codeName, ... }`. Write errors of a batch are collected separately
 * (`WriteError`) and reported in `writeErrors`.
 */
import { codeNameOf, ErrorCodes, type ErrorCodeName } from './codes.js';

/** Fields of a reply document (the BSON `Document` of src/bson/library.ts; errors sit below it). */
type Document = { [key: string]: unknown };

/** An error reply: code, codeName (derived), message, and optional extra reply fields. */
export class CommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  /** Extra fields merged into the error reply (e.g. `keyPattern`, `keyValue`). */
  readonly extra: Document | undefined;

  constructor(code: number | ErrorCodeName, message: string, extra?: Document) {
    super(message);
    this.code = typeof code === 'number' ? code : ErrorCodes[code];
    this.codeName = codeNameOf(this.code);
    this.extra = extra;
    this.name = 'CommandError';
  }

  /** The reply document for this error. */
  toReply(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  /** The `writeErrors` entry for this error at batch position `index`. */
  toWriteError(index: number): Document {
    return { index, code: this.code, errmsg: this.message, ...this.extra };
  }
}

/** Shorthand constructors for the errors used everywhere. */
export const errors = {
  badValue: (msg: string) => new CommandError('BadValue', msg),
  typeMismatch: (msg: string) => new CommandError('TypeMismatch', msg),
  failedToParse: (msg: string) => new CommandError('FailedToParse', msg),
  invalidNamespace: (msg: string) => new CommandError('InvalidNamespace', msg),
  namespaceNotFound: (msg: string) => new CommandError('NamespaceNotFound', msg),
  notImplemented: (msg: string) => new CommandError('NotImplemented', msg),
  /** mongod's IDL error for a field that is not part of a command. */
  unknownField: (command: string, field: string) =>
    new CommandError('IDLUnknownField', `BSON field '${command}.${field}' is an unknown field.`),
};

/** Any thrown value as a CommandError (unknown errors become InternalError). */
export function toCommandError(err: unknown): CommandError {
  if (err instanceof CommandError) return err;
  if (err instanceof RangeError && /call stack/i.test(err.message)) {
    return new CommandError(15, 'document nesting too deep');
  }
  return new CommandError('InternalError', err instanceof Error ? err.message : String(err));
}
