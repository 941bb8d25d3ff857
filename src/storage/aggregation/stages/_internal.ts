/**
 * What several stages share: the transform of a document into the value of an expression
 * (`$replaceRoot`, `$replaceWith`), the transform applying a projection (`$project`, `$unset`),
 * and the checks of `$out`'s target.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { ExpressionContext } from '../../expression/context.js';
import type { Evaluator } from '../../expression/types.js';
import { typeName } from '../../expression/value.js';
import type { ProjectionFn } from '../../projection/projection_executor.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { docValueToString } from '../../values/format.js';
import { validateCollectionName, validateDbName } from '../../values/namespace.js';
import { isDocument } from '../../values/paths.js';
import { withMetadataOf } from '../../values/metadata.js';
import type { StageInstance } from '../stage.js';

/**
 * The transform making each document the value of `newRoot`, which must be an object (40228
 * otherwise, with `context` naming the expression as mongod's message does, and the input).
 */
export function replaceRootStage(newRoot: Evaluator, context: string, expressions: ExpressionContext): StageInstance {
  return {
    *run(input) {
      for (const doc of input) {
        const v = newRoot(expressions.frame(doc));
        if (!isDocument(v)) {
          throw new CommandError(
            40228,
            `${context} must evaluate to an object, but resulting value was: ${docValueToString(v)}. Type of resulting value: '${typeName(v)}'. Input document: ${docValueToString(doc)}`,
          );
        }
        yield v as Document;
      }
    },
  };
}

/** The transform applying `apply` to every document, its expressions evaluated in `expressions`' frames. */
export function projectionStage(apply: ProjectionFn, expressions: ExpressionContext): StageInstance {
  return {
    *run(input) {
      for (const doc of input) yield withMetadataOf(doc, apply(doc, expressions.frame(doc)));
    },
  };
}

/** The databases `$out` refuses to write to. */
const INTERNAL_DBS = new Set(['admin', 'local', 'config']);

/** Refuses a target `$out` (`kind`) may not write to: an internal database, a system collection. */
export function checkTarget(kind: string, db: string, coll: string): void {
  validateDbName(db);
  if (INTERNAL_DBS.has(db)) throw new CommandError(31321, `Can't ${kind} to internal database: ${db}`);
  if (coll.startsWith('system.')) throw new CommandError(17385, `Can't ${kind} to special collection: ${coll}`);
  validateCollectionName(db, coll, true);
}

/** Reads the whole input before the first write: the target may be the collection being read. */
export function readAll(input: Iterable<Document>): Document[] {
  return [...input];
}
