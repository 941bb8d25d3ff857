/**
 * What several stages share: the transform of a document into the value of an expression
 * (`$replaceRoot`, `$replaceWith`), the transform applying a projection (`$project`, `$unset`),
 * and the target namespace of the writing stages (`$out`, `$merge`).
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
      for (const doc of input) yield apply(doc, expressions.frame(doc));
    },
  };
}

/** The databases `$out` and `$merge` refuse to write to. */
const INTERNAL_DBS = new Set(['admin', 'local', 'config']);

/**
 * The `{db, coll}` of a writing stage: a string is a collection of `defaultDb`, a document names
 * both in its fields `dbField` and `collField` (IDL's errors for a wrong type or a missing one).
 */
export function targetNamespace(stageName: string, spec: unknown, defaultDb: string, dbField: string, collField: string): { db: string; coll: string } {
  if (typeof spec === 'string') return { db: defaultDb, coll: spec };
  const doc = spec as Document;
  const db = doc[dbField] === undefined ? defaultDb : doc[dbField];
  const coll = doc[collField];
  if (typeof db !== 'string') throw new CommandError('TypeMismatch', `BSON field '${stageName}.${dbField}' is the wrong type '${bsonTypeOf(db)}', expected type 'string'`);
  if (typeof coll !== 'string') {
    throw new CommandError(
      coll === undefined ? 'IDLFailedToParse' : 'TypeMismatch',
      coll === undefined
        ? `BSON field '${stageName}.${collField}' is missing but a required field`
        : `BSON field '${stageName}.${collField}' is the wrong type '${bsonTypeOf(coll)}', expected type 'string'`,
    );
  }
  return { db, coll };
}

/** Refuses a target `$out`/`$merge` (`kind`) may not write to: an internal database, a system collection. */
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
