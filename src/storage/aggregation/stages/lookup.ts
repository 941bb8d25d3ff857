/**
 * `$lookup` (mongo/src/mongo/db/pipeline/document_source_lookup.cpp, document_source_lookup.idl):
 * each input document gets, at `as`, the array of the documents of `from` (a collection, or a
 * view: its pipeline runs first) that
 *   - match it on `localField`/`foreignField`: the foreign documents `{<foreignField>: {$eq: v}}`
 *     matches for a value v at the local path (arrays along it expanded; none: null, which
 *     matches null and missing), under the command's collation;
 *   - and/or come out of `pipeline`, a sub-pipeline over `from` in which the `let` variables,
 *     evaluated against the input document, are visible as `$$name` (5.0+ allows both: the
 *     equality filter runs first, after a leading `$documents`).
 * Without `from` the sub-pipeline must start with `$documents`. The checks follow mongod's
 * order: the lite parse (`from`, the collectionless pipeline, the namespace), the IDL (unknown
 * fields 40415, `as` required 40414, types 14; a null field counts as absent), then the field
 * paths, the syntax rules (FailedToParse), the `let` names, the sub-pipeline (51047 for a stage
 * it does not allow). The equality join asks the foreign collection's index on `foreignField`
 * when it has one (a single value probes it directly: the runtime's `equalityProbe`); otherwise the foreign side is hashed once per run. A sub-pipeline that does
 * not depend on the input document (no `let`, no equality) runs once per run.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { validateNameForUserWrite } from '../../expression/grammar.js';
import type { Evaluator } from '../../expression/types.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import type { Collator } from '../../values/collator.js';
import { collationKeyString } from '../../values/key_string.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type ParsedPipeline, type ParsedStage, type PipelineParseContext, type StageDefinition, type StageInstance } from '../stage.js';
import { compileMatchFilter, match } from './match.js';
import {
  checkPipelineArray,
  joinFieldPath,
  parseSubPipeline,
  runOver,
  runSubStages,
  setPath,
  subPipelineContext,
  validCollectionName,
  valuesAtPath,
} from './_internal/sub_pipeline.js';

const KNOWN_FIELDS = new Set(['from', 'as', 'localField', 'foreignField', 'let', 'pipeline']);

/** The namespaces `{from: {db, coll}}` may name (`parseLookupFromAndResolveNamespace`). */
function allowedForeignDb(db: string, coll: string): boolean {
  return (db === 'config' && coll.startsWith('cache.chunks.')) || (db === 'local' && (coll === 'oplog.rs' || coll === 'tenantMigration.oplogView'));
}

function wrongType(field: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '$lookup.${field}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

/** `from`: a collection of the pipeline's database, or `{db, coll}` of the few allowed; null for another database. */
function parseFrom(value: unknown, db: string): string | null {
  if (typeof value === 'string') return value;
  if (!isDocument(value)) throw new CommandError('FailedToParse', `$lookup 'from' field must be a string, but found ${bsonTypeOf(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'db' && key !== 'coll') throw new CommandError(40415, `BSON field 'from.${key}' is an unknown field.`);
  }
  for (const key of ['db', 'coll']) {
    const v = value[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new CommandError('TypeMismatch', `BSON field 'from.${key}' is the wrong type '${bsonTypeOf(v)}', expected type 'string'`);
    }
  }
  const fromDb = typeof value.db === 'string' ? value.db : '';
  const coll = typeof value.coll === 'string' ? value.coll : '';
  if (!allowedForeignDb(fromDb, coll)) {
    throw new CommandError('FailedToParse', `$lookup with syntax {from: {db:<>, coll:<>},..} is not supported for db: ${fromDb} and coll: ${coll}`);
  }
  return fromDb === db ? coll : null;
}

/** The specification once checked. */
interface LookupSpec {
  /** The foreign collection (null: another database, which Mayfly has none of; undefined: collectionless). */
  readonly from: string | null | undefined;
  readonly as: string[];
  readonly localField?: string[];
  readonly foreignField?: string;
  readonly letDoc?: Document;
  readonly pipeline?: Document[];
}

function parseSpec(spec: unknown, db: string): LookupSpec {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', `the $lookup stage specification must be an object, but found ${bsonTypeOf(spec)}`);
  const present = (key: string): boolean => spec[key] !== undefined && spec[key] !== null;
  // The lite parse: `from`, or a pipeline starting with $documents; the namespace.
  let from: string | null | undefined;
  if (spec.from === undefined) {
    if (spec.pipeline === undefined) throw new CommandError('FailedToParse', "must specify 'pipeline' when 'from' is empty");
    const stages = checkPipelineArray(spec.pipeline);
    if (stages.length === 0 || !('$documents' in stages[0]!)) {
      throw new CommandError('FailedToParse', '$lookup stage without explicit collection must have a pipeline with $documents as first stage');
    }
    from = undefined;
  } else {
    from = parseFrom(spec.from, db);
    if (from !== null && !validCollectionName(from)) throw new CommandError('InvalidNamespace', `invalid $lookup namespace: ${db}.${from}`);
  }
  if (spec.pipeline !== undefined) checkPipelineArray(spec.pipeline);
  // The IDL.
  for (const key of Object.keys(spec)) {
    if (!KNOWN_FIELDS.has(key)) throw new CommandError(40415, `BSON field '$lookup.${key}' is an unknown field.`);
  }
  if (!present('as')) throw new CommandError(40414, "BSON field '$lookup.as' is missing but a required field");
  for (const key of ['as', 'localField', 'foreignField']) if (present(key) && typeof spec[key] !== 'string') throw wrongType(key, spec[key], 'string');
  if (present('let') && !isDocument(spec.let)) throw wrongType('let', spec.let, 'object');
  const as = joinFieldPath(spec.as as string);
  const local = present('localField') && spec.localField !== '' ? (spec.localField as string) : undefined;
  const foreign = present('foreignField') && spec.foreignField !== '' ? (spec.foreignField as string) : undefined;
  const localField = local === undefined ? undefined : joinFieldPath(local);
  if (foreign !== undefined) joinFieldPath(foreign);
  const hasPipeline = spec.pipeline !== undefined;
  if (hasPipeline) {
    if ((local === undefined) !== (foreign === undefined)) {
      throw new CommandError('FailedToParse', "$lookup requires both or neither of 'localField' and 'foreignField' to be specified");
    }
  } else {
    if (local === undefined || foreign === undefined) {
      throw new CommandError('FailedToParse', "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified");
    }
    if (present('let')) throw new CommandError('FailedToParse', "$lookup with a 'let' argument must also specify 'pipeline'");
  }
  return {
    from,
    as,
    localField,
    foreignField: foreign,
    letDoc: present('let') ? (spec.let as Document) : undefined,
    pipeline: hasPipeline ? (spec.pipeline as Document[]) : undefined,
  };
}

/** The filter `{<foreignField>: ...}` matching any of `values` (`makeMatchStageFromInput`). */
function equalityFilter(foreignField: string, values: readonly unknown[]): Document {
  if (values.length === 1) return { [foreignField]: { $eq: values[0] } };
  // A regular expression in $in would match strings: equalities instead.
  if (values.some((v) => bsonTypeOf(v) === 'regex')) return { $or: values.map((v) => ({ [foreignField]: { $eq: v } })) };
  return { [foreignField]: { $in: [...values] } };
}

/**
 * The foreign documents hashed by the values `{<path>: {$eq: v}}` could match them on: every value
 * at the path (an array and its elements), and apart those a null could match (a path that ends
 * missing or null somewhere). A superset: each candidate is checked against the filter.
 */
class ForeignHash {
  private readonly byKey = new Map<string, number[]>();
  private readonly nullish: number[] = [];
  readonly docs: Document[];

  constructor(docs: Iterable<Document>, private readonly parts: readonly string[], private readonly collator: Collator | null) {
    this.docs = [...docs];
    this.docs.forEach((doc, i) => {
      const keys = new Set<string>();
      let nullish = false;
      const leaf = (v: unknown): void => {
        if (v === undefined || v === null) {
          nullish = true;
          return;
        }
        keys.add(collationKeyString(v, collator));
        if (Array.isArray(v)) {
          for (const el of v) {
            if (el === null || el === undefined) nullish = true;
            else keys.add(collationKeyString(el, collator));
          }
        }
      };
      const walk = (v: unknown, at: number): void => {
        if (at === parts.length) return leaf(v);
        if (isDocument(v)) return walk(Object.prototype.hasOwnProperty.call(v, parts[at]!) ? v[parts[at]!] : undefined, at + 1);
        if (Array.isArray(v)) {
          if (v.length === 0) nullish = true;
          for (const el of v) {
            if (isDocument(el)) walk(el, at);
            else nullish = true;
          }
          return;
        }
        nullish = true;
      };
      walk(doc, 0);
      if (nullish) this.nullish.push(i);
      for (const k of keys) {
        const list = this.byKey.get(k);
        if (list === undefined) this.byKey.set(k, [i]);
        else list.push(i);
      }
    });
  }

  /** The candidates for `values`, in the foreign documents' order. */
  candidates(values: readonly unknown[]): Document[] {
    const picked = new Set<number>();
    for (const v of values) {
      if (v === null || v === undefined) for (const i of this.nullish) picked.add(i);
      if (v !== null) for (const i of this.byKey.get(collationKeyString(v, this.collator)) ?? []) picked.add(i);
    }
    return [...picked].sort((a, b) => a - b).map((i) => this.docs[i]!);
  }
}

/** True when the hash can serve `path` (no numeric component, which could index arrays). */
function hashable(path: string): boolean {
  return !path.split('.').some((p) => /^[0-9]+$/.test(p));
}

function compileLookup(rawSpec: unknown, ctx: PipelineParseContext): StageInstance {
  const spec = parseSpec(rawSpec, ctx.runtime.db);
  const collections = ctx.runtime.collections;
  // Let variables: validated and parsed in the enclosing scope, then defined for the sub-pipeline.
  const letNames = spec.letDoc === undefined ? [] : Object.keys(spec.letDoc);
  const letExprs: Evaluator[] = [];
  const view = spec.from === undefined || spec.from === null ? undefined : collections.resolveView(spec.from);
  const source = spec.from === undefined || spec.from === null ? undefined : view ? view.source : spec.from;
  for (const name of letNames) {
    validateNameForUserWrite(name);
    letExprs.push(ctx.expressions.scope.parse(spec.letDoc![name]));
  }
  const sub = subPipelineContext(ctx, spec.from === undefined ? null : (source ?? spec.from ?? ''), letNames);
  const subCtx = sub.ctx;
  const userStages = spec.pipeline ?? [];
  // The view's stages and the user's are parsed together (the foreign pipeline mongod builds).
  const viewStages = view ? [...view.pipeline] : [];
  const whole: ParsedPipeline = parseSubPipeline([...viewStages, ...userStages], subCtx, 'lookup');
  const viewPart = whole.stages.slice(0, viewStages.length);
  const userPart = whole.stages.slice(viewStages.length);
  const collator = ctx.expressions.runtime.collator;
  const as = spec.as;
  const vars = ctx.expressions.vars;

  const setLet = (doc: Document): void => {
    if (letExprs.length === 0) return;
    const frame = ctx.expressions.frame(doc);
    const values = letExprs.map((ev) => ev(frame));
    sub.slots.forEach((slot, i) => (vars[slot] = values[i]));
  };

  if (spec.localField === undefined || spec.foreignField === undefined) {
    const correlated = letNames.length > 0;
    return {
      *run(input) {
        let cache: Document[] | undefined;
        for (const doc of input) {
          setLet(doc);
          let results: Document[];
          if (correlated || cache === undefined) {
            results = [...runOver(whole, subCtx, source)];
            if (!correlated) cache = results;
          } else results = cache;
          yield setPath(doc, as, correlated ? results : [...results]);
        }
      },
    };
  }

  const localField = spec.localField;
  const foreignField = spec.foreignField;
  const leadingSource = userPart.length > 0 && userPart[0]!.definition.constraints.input === 'none' ? userPart[0]! : undefined;
  const afterMatch: readonly ParsedStage[] = leadingSource ? userPart.slice(1) : userPart;
  const userOnly: ParsedPipeline = { stages: afterMatch };
  const useIndex = leadingSource === undefined && view === undefined && source !== undefined && collections.indexedOn(source, foreignField);
  return {
    *run(input) {
      let hash: ForeignHash | undefined;
      const foreignDocs = (): Iterable<Document> => {
        if (source === undefined) return [];
        const base = collections.query(source, { filter: {}, predicate: null, collator });
        return viewPart.length === 0 ? base : runSubStages(viewPart, base);
      };
      // One value joined through the foreign index: probed directly, without planning the query
      // for each document, when the user's stages leave the query layer nothing else to plan.
      const probe = useIndex && afterMatch[0]?.name !== '$match' ? collections.equalityProbe?.(source, foreignField, collator) : undefined;
      for (const doc of input) {
        setLet(doc);
        let values = valuesAtPath(doc, localField);
        if (values.length === 0) values = [null];
        const probed = probe !== undefined && values.length === 1 ? probe(values[0]) : undefined;
        if (probed !== undefined) {
          yield setPath(doc, as, afterMatch.length === 0 ? probed : [...runSubStages(afterMatch, probed)]);
          continue;
        }
        const filter = equalityFilter(foreignField, values);
        const predicate = compileMatchFilter(filter, subCtx.expressions);
        let results: Document[];
        if (leadingSource !== undefined) {
          const made = [...runSubStages([leadingSource], [])].filter(predicate);
          results = [...runSubStages(afterMatch, made)];
        } else if (useIndex) {
          // The equality joins the user's stages: the query layer gets both (an index on foreignField answers it).
          const joined: ParsedPipeline = { stages: [matchStage(filter, predicate), ...afterMatch] };
          results = [...runOver(joined, subCtx, source)];
        } else {
          if (hashable(foreignField)) {
            hash ??= new ForeignHash(foreignDocs(), foreignField.split('.'), collator);
            results = [...runSubStages(userOnly.stages, hash.candidates(values).filter(predicate))];
          } else {
            results = [...runSubStages(userOnly.stages, [...foreignDocs()].filter(predicate))];
          }
        }
        yield setPath(doc, as, results);
      }
    },
  };
}

/** A `$match` of `filter` as a parsed stage (the optimiser hands it to the query layer). */
function matchStage(filter: Document, predicate: (doc: Document) => boolean): ParsedStage {
  const instance = {
    filter,
    predicate,
    *run(input: Iterable<Document>) {
      for (const doc of input) if (predicate(doc)) yield doc;
    },
  };
  return { name: '$match', stage: { $match: filter }, definition: match, instance };
}

/** `{$lookup: {from, localField, foreignField, let, pipeline, as}}`. */
export const lookup: StageDefinition = {
  name: '$lookup',
  constraints: TRANSFORM,
  parse: (spec, ctx) => compileLookup(spec, ctx),
};
