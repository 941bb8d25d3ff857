/**
 * Where the write commands meet document validation (`src/storage/validation/`): insert,
 * update (operators, replacement, pipeline, upsert inserts), findAndModify and bulkWrite call
 * `enforceValidation` with the document they are about to store. A failure is 121
 * DocumentValidationFailure "Document failed validation" with mongod's `errInfo` (a write error
 * of the statement, or findAndModify's command error); with `validationAction: 'warn'` the write
 * proceeds and the server logs "Document would fail validation"; `errorAndLog` does both.
 * `bypassDocumentValidation: true` skips the check.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { type Collection, prepareForInsert } from '../../storage/collection.js';
import { checkDocument, hasActiveValidator } from '../../storage/validation/validator.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import type { CommandContext } from '../types.js';
import type { WriteEnv } from '../../storage/write/_internal.js';

/** mongod's message for a document that fails validation. */
export const DOCUMENT_FAILED_VALIDATION = 'Document failed validation';

/**
 * Checks `next` (the document about to be stored in `coll`; `previous` is the one an update
 * replaces, null for an insert) unless `bypass`. Throws 121, logs, or does nothing, as the
 * collection's validationAction says.
 */
export function enforceValidation(ctx: CommandContext, coll: Collection, next: Document, previous: Document | null, bypass: boolean): void {
  if (bypass) return;
  const failure = checkDocument(coll, next, previous, ctx.now());
  if (!failure) return;
  if (failure.action !== 'error') {
    ctx.server.logger.warn(
      { namespace: coll.ns, document: next, errInfo: failure.errInfo },
      failure.action === 'warn' ? 'Document would fail validation' : DOCUMENT_FAILED_VALIDATION,
    );
  }
  if (failure.action !== 'warn') throw new CommandError('DocumentValidationFailure', DOCUMENT_FAILED_VALIDATION, { errInfo: failure.errInfo });
}

/**
 * The document an insert stores, checked: `_id` generated (when absent) and moved first, as the
 * collection would, so that `failingDocumentId` names it. Without an active validator the
 * document is returned untouched (the collection prepares it).
 */
export function validatedInsert(ctx: CommandContext, coll: Collection, doc: Document, bypass: boolean): Document {
  if (bypass || !hasActiveValidator(coll)) return doc;
  const prepared = prepareForInsert(doc);
  enforceValidation(ctx, coll, prepared, null, false);
  return prepared;
}

/** The ports of the write executors (`src/storage/write/`) for the command of `ctx`. */
export function writeEnv(ctx: CommandContext, bypass: boolean): WriteEnv {
  return {
    now: ctx.now,
    bypassValidation: bypass,
    validate: (coll, next, previous) => enforceValidation(ctx, coll, next, previous, false),
    validateInsert: (coll, doc) => validatedInsert(ctx, coll, doc, false),
  };
}

/** `bypassDocumentValidation` of a write command: true or a non-zero number (mongod's `safeBool`). */
export function bypassArg(cmd: Document): boolean {
  const value = cmd.bypassDocumentValidation;
  if (typeof value === 'boolean') return value;
  return isNumber(value) && toDouble(value) !== 0;
}
