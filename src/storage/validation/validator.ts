/**
 * Document validation as mongod 8.2 does it: a collection's `validator` (any query filter,
 * `$jsonSchema` and `$expr` included; `$where`, `$text` and the sorting geo operators refused),
 * its `validationLevel` (`off`, `strict` — the default —, `moderate`: an update of a document
 * that already fails is allowed) and `validationAction` (`error` — the default —, `warn`: the
 * write happens and a warning is logged, `errorAndLog`: refused and logged).
 *
 * Storage decides whether a document passes and builds mongod's `errInfo`
 * (`failingDocumentId`, `details`: see `error_details.ts`); the write commands call it through
 * `src/commands/crud/document_validation.ts`, which raises 121 or logs.
 * Source: mongo/src/mongo/db/catalog/collection_impl.cpp (parseValidator, checkValidation),
 * mongo/src/mongo/db/catalog/collection_options.idl.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { ExpressionContext } from '../expression/context.js';
import type { Collection } from '../collection.js';
import { compileFilter, type Predicate } from '../query/compile_filter.js';
import { isExpressionDocument } from '../query/operators/comparison.js';
import { isDocument } from '../values/paths.js';
import { validationErrorDetails } from './error_details.js';

/** The values of `validationLevel`. */
export const ValidationLevels = ['off', 'strict', 'moderate'] as const;
/** One of `ValidationLevels`. */
export type ValidationLevel = (typeof ValidationLevels)[number];

/** The values of `validationAction`. */
export const ValidationActions = ['error', 'warn', 'errorAndLog'] as const;
/** One of `ValidationActions`. */
export type ValidationAction = (typeof ValidationActions)[number];

/** The collection options document validation owns, in mongod's listing order. */
export const VALIDATION_OPTIONS = ['validator', 'validationLevel', 'validationAction'] as const;

/** Checks an enumeration value of `<command>.<field>` (2 BadValue, the IDL's message). */
function enumValue<T extends string>(command: string, field: string, value: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw new CommandError('BadValue', `Enumeration value '${String(value)}' for field '${command}.${field}' is not a valid value.`);
  }
  return value as T;
}

/** `validationLevel` of `create`/`collMod` (a string, already type-checked). */
export function parseValidationLevel(command: string, value: unknown): ValidationLevel {
  return enumValue(command, 'validationLevel', value, ValidationLevels);
}

/** `validationAction` of `create`/`collMod` (a string, already type-checked). */
export function parseValidationAction(command: string, value: unknown): ValidationAction {
  return enumValue(command, 'validationAction', value, ValidationActions);
}

const NEAR_OPERATORS = new Set(['$near', '$nearSphere', '$geoNear']);

/** mongod's 5626500 for the geo operators that need a sort, outside find/aggregate. */
function nearNotAllowed(): CommandError {
  return new CommandError(
    5626500,
    '$geoNear, $near, and $nearSphere are not allowed in this context, as these operators require sorting geospatial data. If you do not need sort, consider using $geoWithin instead. Check out https://dochub.mongodb.org/core/near-sort-operation and https://dochub.mongodb.org/core/nearSphere-sort-operationfor more details.',
  );
}

/** Refuses what a validator may not hold: `$where`, `$text` (2) and `$near`-like operators (5626500). */
function checkAllowedOperators(filter: Document): void {
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$where' || key === '$text') throw new CommandError('BadValue', `${key} is not allowed in this context`);
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (Array.isArray(value)) for (const sub of value) if (isDocument(sub)) checkAllowedOperators(sub);
      continue;
    }
    if (key.startsWith('$') || !isExpressionDocument(value, false)) continue;
    checkFieldOperators(value as Document);
  }
}

function checkFieldOperators(ops: Document): void {
  for (const op of Object.keys(ops)) {
    if (NEAR_OPERATORS.has(op)) throw nearNotAllowed();
    const arg = ops[op];
    if (op === '$not' && isDocument(arg)) checkFieldOperators(arg);
    if (op === '$elemMatch' && isDocument(arg)) {
      if (isExpressionDocument(arg, false)) checkFieldOperators(arg);
      else checkAllowedOperators(arg);
    }
  }
}

/** A compiled validator: `matches` tests a document at the time the clock says. */
export interface CompiledValidator {
  readonly validator: Document;
  matches(doc: Document, nowMs: number): boolean;
}

/**
 * Parses a validator with mongod's errors (the filter's own parse errors; 2 for `$where` and
 * `$text`; 5626500 for `$near`, `$nearSphere`, `$geoNear`). `$expr` reads `$$NOW` as the time of
 * each check.
 */
export function compileValidator(validator: Document): CompiledValidator {
  checkAllowedOperators(validator);
  const expressions = new ExpressionContext({ now: new Date(0) });
  const predicate: Predicate = compileFilter(validator, {
    whereAllowed: false,
    compileExpr: (expr) => expressions.predicate(expr),
  });
  return {
    validator,
    matches(doc, nowMs) {
      if (expressions.runtime.now.getTime() !== nowMs) expressions.runtime.now = new Date(nowMs);
      return predicate(doc);
    },
  };
}

/**
 * Refuses a validator on a namespace mongod refuses it on: system collections and the internal
 * databases (72 InvalidOptions).
 */
export function checkValidatorNamespace(db: string, name: string, uuidHex: string): void {
  if (name.startsWith('system.')) throw new CommandError('InvalidOptions', `Document validators not allowed on system collection ${db}.${name}`);
  if (db === 'admin' || db === 'local' || db === 'config') {
    throw new CommandError('InvalidOptions', `Document validators are not allowed on collection ${db}.${name} with UUID ${uuidHex} in the ${db} internal database`);
  }
}

/** The validation state of a collection, compiled from its options. */
interface CollectionValidation {
  readonly options: Document;
  readonly compiled: CompiledValidator | null;
  readonly level: ValidationLevel;
  readonly action: ValidationAction;
}

const cache = new WeakMap<Collection, CollectionValidation>();

/** The collection's validation settings (compiled once per options document). */
function validationOf(coll: Collection): CollectionValidation {
  const cached = cache.get(coll);
  if (cached && cached.options === coll.options) return cached;
  const options = coll.options;
  const validator = options.validator;
  const state: CollectionValidation = {
    options,
    compiled: isDocument(validator) && Object.keys(validator).length > 0 ? compileValidator(validator) : null,
    level: (options.validationLevel as ValidationLevel | undefined) ?? 'strict',
    action: (options.validationAction as ValidationAction | undefined) ?? 'error',
  };
  cache.set(coll, state);
  return state;
}

/** True when writes to `coll` are checked at all (a validator and a level other than `off`). */
export function hasActiveValidator(coll: Collection): boolean {
  const state = validationOf(coll);
  return state.compiled !== null && state.level !== 'off';
}

/** A document that failed validation: what mongod reports, and what the collection says to do. */
export interface ValidationFailure {
  readonly action: ValidationAction;
  /** `{ failingDocumentId, details }`. */
  readonly errInfo: Document;
}

/**
 * Checks the document a write is about to store (`next`, `_id` first); `previous` is the
 * document an update replaces (null for inserts). Returns null when the write may proceed
 * without a word (valid, no validator, level `off`, or `moderate` with an already invalid
 * `previous`), else the failure.
 */
export function checkDocument(coll: Collection, next: Document, previous: Document | null, nowMs: number): ValidationFailure | null {
  const state = validationOf(coll);
  const compiled = state.compiled;
  if (!compiled || state.level === 'off') return null;
  if (compiled.matches(next, nowMs)) return null;
  if (previous && state.level === 'moderate' && !compiled.matches(previous, nowMs)) return null;
  const errInfo: Document = { failingDocumentId: next._id, details: validationErrorDetails(compiled.validator, next, nowMs) };
  return { action: state.action, errInfo };
}
