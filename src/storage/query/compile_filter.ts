/**
 * The filter (query predicate) compiler. A filter is parsed and validated once, with mongod's
 * error codes and messages (mongo/src/mongo/db/query/compiler/parsers/matcher/expression_parser.cpp),
 * into a tree of closures; matching a document then does no parsing and, for top-level
 * comparisons on scalars, no allocation.
 *
 * Operators live in `operators/` by kind: comparison, logical, element, evaluation, array,
 * bitwise, geo, json_schema.
 */
import { bsonTag, type Document } from '../../bson/library.js';
import { storedFieldEquals } from '../record_format.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../values/format.js';
import { cloneValue } from '../values/clone.js';
import { addTopLevelField, isDocument, parsePath, setField } from '../values/paths.js';
import { parseAll, parseElemMatch, parseSize, type SubParser } from './operators/array.js';
import { parseBitTest, type BitOp } from './operators/bitwise.js';
import { isExpressionDocument, isRegexValue, parseComparison, parseIn, parseNotEqual } from './operators/comparison.js';
import { parseExists, parseType } from './operators/element.js';
import {
  parseAlwaysBoolean,
  parseExpr,
  parseMod,
  parseRegexDocument,
  parseRegexValue,
  parseSampleRate,
  parseWhere,
} from './operators/evaluation.js';
import { nearClause, nearNotAllowed, NEAR_OPERATORS, parseGeo, parseNear, type NearQuery } from './operators/geo.js';
import { parseJsonSchema } from './operators/json_schema.js';
import { parseTextArgument, type TextQuery } from './operators/text.js';
import { parseNot, parseTree } from './operators/logical.js';
import { allOf, clausePredicate } from './path_predicate.js';
import { and, ParseLevel, type Clause, type FilterOptions, type ParseContext, type Predicate } from './types.js';

export type { Predicate, FilterOptions } from './types.js';

/** Field (path-accepting) operators mongod knows. */
const FIELD_OPERATORS: ReadonlySet<string> = new Set([
  '$all',
  '$bitsAllClear',
  '$bitsAllSet',
  '$bitsAnyClear',
  '$bitsAnySet',
  '$elemMatch',
  '$eq',
  '$exists',
  '$geoIntersects',
  '$geoNear',
  '$geoWithin',
  '$gt',
  '$gte',
  '$in',
  '$lt',
  '$lte',
  '$mod',
  '$ne',
  '$near',
  '$nearSphere',
  '$nin',
  '$options',
  '$regex',
  '$size',
  '$type',
  '$within',
  '$_internalExprEq',
  '$_internalExprGt',
  '$_internalExprGte',
  '$_internalExprLt',
  '$_internalExprLte',
  '$_internalEqHash',
  '$_internalSchemaAllElemMatchFromIndex',
  '$_internalSchemaBinDataEncryptedType',
  '$_internalSchemaBinDataSubType',
  '$_internalSchemaEq',
  '$_internalSchemaFmod',
  '$_internalSchemaMatchArrayIndex',
  '$_internalSchemaMaxItems',
  '$_internalSchemaMaxLength',
  '$_internalSchemaMinItems',
  '$_internalSchemaMinLength',
  '$_internalSchemaObjectMatch',
  '$_internalSchemaType',
  '$_internalSchemaUniqueItems',
]);

/** Top-level (path-less) operators mongod knows. */
const PATHLESS_OPERATORS: ReadonlySet<string> = new Set([
  '$_internalBucketGeoWithin',
  '$_internalPath',
  '$_internalSchemaAllowedProperties',
  '$_internalSchemaCond',
  '$_internalSchemaMaxProperties',
  '$_internalSchemaMinProperties',
  '$_internalSchemaRootDocEq',
  '$_internalSchemaXor',
  '$alwaysFalse',
  '$alwaysTrue',
  '$and',
  '$comment',
  '$db',
  '$expr',
  '$id',
  '$jsonSchema',
  '$nor',
  '$or',
  '$ref',
  '$sampleRate',
  '$text',
  '$where',
]);

/** The predicate of an empty filter: true for every document, reading none of its fields. */
export const ALWAYS_TRUE: Predicate = () => true;
(ALWAYS_TRUE as NotedPredicate).fields = [];

/** A compiled filter that notes the top-level fields it reads (`predicateFields`). */
interface NotedPredicate extends Predicate {
  fields?: readonly string[] | null;
  storedTest?: StoredTest;
  near?: NearQuery;
  text?: TextQuery;
}

/** The `$text` query of a compiled filter, or null: its matches are read from the text index. */
export function predicateText(predicate: Predicate): TextQuery | null {
  return (predicate as NotedPredicate).text ?? null;
}

/**
 * The near query (`$near`, `$nearSphere`, `$geoNear`) of a compiled filter, or null: its matches
 * are to be read in order of distance, from a geospatial index (operators/geo.ts).
 */
export function predicateNear(predicate: Predicate): NearQuery | null {
  return (predicate as NotedPredicate).near ?? null;
}

/**
 * A test of a stored document's bytes (src/storage/record_format.ts) that answers a filter without
 * decoding anything when it can: true or false, or undefined when the filter must be run.
 */
export type StoredTest = (bson: string) => boolean | undefined;

/** The stored-bytes test a compiled filter carries (a top-level equality with a string or a number), or null. */
export function predicateStoredTest(predicate: Predicate): StoredTest | null {
  return (predicate as NotedPredicate).storedTest ?? null;
}

/**
 * The stored-bytes test of the plain equality `{field: value}`: a top-level ASCII field name,
 * an ASCII string or a number other than NaN, compared without a collation; else undefined.
 */
function plainEqualityStoredTest(field: string, value: unknown, collator: unknown): StoredTest | undefined {
  if (collator !== null || !isAscii(field) || field.includes('.')) return undefined;
  if ((typeof value === 'string' && isAscii(value)) || (typeof value === 'number' && !Number.isNaN(value))) {
    return (bson) => storedFieldEquals(bson, field, value);
  }
  return undefined;
}

/** True when `s` is ASCII. */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * The top-level fields a compiled filter reads (the first part of each path it names), or null
 * when it may read any ($expr, $where, $jsonSchema, $text, or a predicate made elsewhere). A
 * document holding only those fields of a stored one matches exactly when the whole does, so a
 * reader decodes only them (`documentFields`).
 */
export function predicateFields(predicate: Predicate): readonly string[] | null {
  return (predicate as NotedPredicate).fields ?? null;
}

/** `predicate`, noting that it reads `fields` (null: any). */
function noteFields(predicate: Predicate, fields: readonly string[] | null): Predicate {
  (predicate as NotedPredicate).fields = fields;
  return predicate;
}

/**
 * The top-level fields `filter` (a valid filter) reads, added to `into`; null when it may read
 * any ($expr, $where, $jsonSchema, $text, ...).
 */
export function filterFields(filter: Document, into: string[] = []): string[] | null {
  for (const key in filter) {
    if (key.charCodeAt(0) !== 36 /* $ */) {
      addTopLevelField(into, key);
      continue;
    }
    switch (key) {
      case '$comment':
      case '$alwaysTrue':
      case '$alwaysFalse':
        continue;
      case '$and':
      case '$or':
      case '$nor':
        for (const clause of filter[key] as Document[]) if (filterFields(clause, into) === null) return null;
        continue;
      default:
        return null;
    }
  }
  return into;
}

/**
 * The field of a filter that is one equality with a plain value (`{k: 5}`, `{_id: ObjectId(..)}`,
 * `{name: 'x'}`: a number, string, boolean, ObjectId or Date), the commonest filter of all;
 * undefined for any other filter. Such a filter needs no parse tree (`compileFilter`) and no
 * general analysis (the planner's `analyzeFilter`): both take it straight to its one equality.
 */
export function plainEqualityField(filter: Document): string | undefined {
  let field: string | undefined;
  for (const key in filter) {
    if (field !== undefined || key.charCodeAt(0) === 36 /* $ */) return undefined;
    field = key;
  }
  if (field === undefined) return undefined;
  const value = filter[field];
  switch (typeof value) {
    case 'number':
    case 'string':
    case 'boolean':
      return field;
    case 'object':
      if (value instanceof Date || (value !== null && bsonTag(value) === 'ObjectId')) return field;
      return undefined;
    default:
      return undefined;
  }
}

/** Compiles a filter into a predicate; throws CommandError with mongod's code and message. */
export function compileFilter(filter: Document, options: FilterOptions = {}): Predicate {
  if (isEmptyFilter(filter)) return ALWAYS_TRUE;
  const plain = plainEqualityField(filter);
  // What the parser below makes of `{field: value}`, without building the parser.
  if (plain !== undefined) {
    const predicate = noteFields(clausePredicate(plain, parseComparison('$eq', plain, filter[plain], options.collator ?? null)), filterFields(filter));
    (predicate as NotedPredicate).storedTest = plainEqualityStoredTest(plain, filter[plain], options.collator ?? null);
    return predicate;
  }
  const ctx: ParseContext = {
    whereAllowed: options.whereAllowed ?? true,
    compileExpr: options.compileExpr,
    collator: options.collator ?? null,
  };
  if ('$text' in filter && hasNear(filter)) throw new CommandError('BadValue', 'text and geoNear not allowed in same query');
  const parser = new FilterParser(ctx, options.nearAllowed ?? options.whereAllowed ?? true);
  const predicate = noteFields(parser.parseDocument(filter, ParseLevel.predicateTop), filterFields(filter));
  const nears = parser.nears;
  if (nears.length > 0) {
    // CanonicalQuery::isValid: one near query, at the top level or in the top-level $and.
    if (nears.length > 1) throw new CommandError('BadValue', 'Too many geoNear expressions');
    if (!nears[0]!.topLevel) throw new CommandError('BadValue', 'geoNear must be top-level expr');
    (predicate as NotedPredicate).near = nears[0]!.query;
  }
  const texts = parser.texts;
  if (texts.length > 0) {
    // CanonicalQuery::isValid: one text query, not under $nor; under $or every other branch must
    // be answered by an index (checked once bound to the collection: planner/text.ts).
    if (texts.length > 1) throw new CommandError('BadValue', 'Too many text expressions');
    if (texts[0]!.under === 'nor') throw new CommandError('BadValue', 'text expression not allowed in nor');
    if (texts[0]!.under === 'or') texts[0]!.query.orSiblings = orSiblingsOfText(filter);
    texts[0]!.query.filter = filter;
    (predicate as NotedPredicate).text = texts[0]!.query;
  }
  return predicate;
}

/**
 * The branches beside the one holding `$text` of every `$or` on the way to it (its siblings
 * under the `$or`s that enclose it); empty when it stands alone in its `$or`s.
 */
function orSiblingsOfText(filter: Document): Document[] {
  const holds = (value: unknown): boolean => {
    if (!isDocument(value)) return false;
    if (Object.hasOwn(value, '$text')) return true;
    for (const op of ['$and', '$or'] as const) {
      const list = value[op];
      if (Array.isArray(list) && list.some(holds)) return true;
    }
    return false;
  };
  const out: Document[] = [];
  const walk = (doc: Document): void => {
    for (const op of ['$and', '$or'] as const) {
      const list = doc[op];
      if (!Array.isArray(list)) continue;
      for (const branch of list) {
        if (!isDocument(branch)) continue;
        if (holds(branch)) walk(branch);
        else if (op === '$or' && list.some(holds)) out.push(branch);
      }
    }
  };
  walk(filter);
  return out;
}

/** True when a field of `filter` (or of its top-level `$and`) is a near query. */
function hasNear(filter: Document): boolean {
  for (const key in filter) {
    const value = filter[key];
    if (key === '$and' && Array.isArray(value)) {
      if (value.some((c) => isDocument(c) && hasNear(c))) return true;
    } else if (key.charCodeAt(0) !== 36 && isDocument(value)) {
      for (const op in value) {
        if (NEAR_OPERATORS.has(op)) return true;
        break;
      }
    }
  }
  return false;
}

/** True for a filter that matches every document ({} or only $comment). */
export function isEmptyFilter(filter: Document): boolean {
  for (const key in filter) if (key !== '$comment') return false;
  return true;
}

class FilterParser implements SubParser {
  readonly collator;
  /** The near queries met, and whether each stood at the top level (or in the top-level $and). */
  readonly nears: Array<{ query: NearQuery; topLevel: boolean }> = [];
  /** The `$text` queries met, and what encloses each. */
  readonly texts: Array<{ query: TextQuery; under: 'top' | 'or' | 'nor' }> = [];
  /** How many $or, $nor, $not and $elemMatch enclose what is being parsed. */
  private nested = 0;
  /** How many of them are $nor. */
  private norNested = 0;

  constructor(
    private readonly ctx: ParseContext,
    private readonly nearAllowed: boolean,
  ) {
    this.collator = ctx.collator;
  }

  /** `parse()` with `nested` raised: what it parses is not at the top level. */
  private inside<T>(parse: () => T): T {
    this.nested++;
    try {
      return parse();
    } finally {
      this.nested--;
    }
  }

  /** `$text`: top level only; its query noted, the predicate matching by it (bound later to the text index). */
  private parseText(value: unknown, level: ParseLevel): Predicate {
    if (level === ParseLevel.subDocument) {
      throw new CommandError('BadValue', '$text can only be applied to the top-level document');
    }
    const query = parseTextArgument(value);
    this.texts.push({ query, under: this.norNested > 0 ? 'nor' : this.nested > 0 ? 'or' : 'top' });
    return (doc) => query.score(doc) !== null;
  }

  isPathlessOperator(name: string): boolean {
    return PATHLESS_OPERATORS.has(name);
  }

  isFieldOperator(name: string): boolean {
    return FIELD_OPERATORS.has(name);
  }

  parseDocument(filter: Document, level: ParseLevel): Predicate {
    const preds: Predicate[] = [];
    const nextLevel = level === ParseLevel.predicateTop ? ParseLevel.documentTop : level;
    for (const key in filter) {
      const value = filter[key];
      if (key.charCodeAt(0) === 36 /* $ */) {
        const p = this.parsePathless(key, value, level);
        if (p !== null) preds.push(p);
        continue;
      }
      if (isExpressionDocument(value, false)) {
        preds.push(clausePredicate(key, this.parseSub(key, value as Document, nextLevel)));
        continue;
      }
      if (isRegexValue(value)) {
        preds.push(clausePredicate(key, parseRegexValue(value)));
        continue;
      }
      preds.push(clausePredicate(key, parseComparison('$eq', key, value, this.collator)));
    }
    return allOf(preds);
  }

  private parsePathless(key: string, value: unknown, level: ParseLevel): Predicate | null {
    switch (key) {
      case '$and':
        return parseTree(key, value, level, this);
      case '$or':
        return this.inside(() => parseTree(key, value, level, this));
      case '$nor':
        this.norNested++;
        try {
          return this.inside(() => parseTree(key, value, level, this));
        } finally {
          this.norNested--;
        }
      case '$comment':
        return null;
      case '$where':
        return parseWhere(level, this.ctx);
      case '$expr':
        return parseExpr(value, level, this.ctx);
      case '$jsonSchema':
        return parseJsonSchema(value);
      case '$text':
        return this.parseText(value, level);
      case '$sampleRate':
        return parseSampleRate(value, level, Math.random);
      case '$alwaysTrue':
      case '$alwaysFalse':
        return parseAlwaysBoolean(key, value);
      case '$id':
      case '$ref':
      case '$db':
        return clausePredicate(key, parseComparison('$eq', key, value, this.collator));
      default:
        if (PATHLESS_OPERATORS.has(key)) {
          throw new CommandError('NotImplemented', `${key} is not supported by Mayfly`);
        }
        throw new CommandError(
          'BadValue',
          key === '$not'
            ? 'unknown top level operator: $not. If you are trying to negate an entire expression, use $nor.'
            : `unknown top level operator: ${key}. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.`,
        );
    }
  }

  parseSub(name: string | null, sub: Document, level: ParseLevel): Clause {
    let first = true;
    const clauses: Clause[] = [];
    for (const key in sub) {
      const value = sub[key];
      if (first && NEAR_OPERATORS.has(key) && typeof value === 'object' && value !== null) {
        // The whole operator document is the near query ({$near: .., $maxDistance: ..}).
        if (!this.nearAllowed) throw nearNotAllowed();
        const query = parseNear(name ?? '', sub);
        this.nears.push({ query, topLevel: this.nested === 0 && level !== ParseLevel.subDocument });
        return nearClause(query);
      }
      first = false;
      const clause = this.parseSubField(sub, name, key, value, level);
      if (clause !== null) clauses.push(clause);
    }
    return and(clauses);
  }

  private parseSubField(
    context: Document,
    name: string | null,
    key: string,
    value: unknown,
    level: ParseLevel,
  ): Clause | null {
    if (key === '$not') return this.inside(() => parseNot(name, value, level, this));
    if (!FIELD_OPERATORS.has(key)) {
      if (key === '$where') throw new CommandError('BadValue', '$where cannot be applied to a field');
      throw new CommandError('BadValue', `unknown operator: ${key}`);
    }
    switch (key) {
      case '$eq':
      case '$lt':
      case '$lte':
      case '$gt':
      case '$gte':
        return parseComparison(key, name, value, this.collator);
      case '$ne':
        return parseNotEqual(value, this.collator);
      case '$in':
      case '$nin':
        return parseIn(key, value, this.collator);
      case '$size':
        return parseSize(value);
      case '$exists':
        return parseExists(value);
      case '$type':
        return parseType(name ?? '', value);
      case '$mod':
        return parseMod(value);
      case '$options':
        if ('$regex' in context) return null;
        throw new CommandError('BadValue', '$options needs a $regex');
      case '$regex':
        return parseRegexDocument(context);
      case '$elemMatch':
        return this.inside(() => parseElemMatch(name, value, this));
      case '$all':
        return parseAll(name, value, this);
      case '$bitsAllSet':
      case '$bitsAllClear':
      case '$bitsAnySet':
      case '$bitsAnyClear':
        return parseBitTest(key as BitOp, name, value);
      case '$near':
      case '$nearSphere':
      case '$geoNear':
        throw new CommandError('BadValue', `near must be first in: ${formatValue(context)}`);
      case '$geoWithin':
      case '$within':
      case '$geoIntersects':
        return parseGeo(key, value, context);
      default:
        throw new CommandError('NotImplemented', `${key} is not supported by Mayfly`);
    }
  }
}

/**
 * The fields an upsert seeds from the equalities of a filter ({a: 1, 'b.c': 2, $and: [{d: 3}]}
 * gives {a: 1, b: {c: 2}, d: 3}): implicit equality, $eq, single-element $in, $and, and a
 * single-clause $or. Throws 54 NotSingleValueField when two equalities claim the same path.
 */
export function equalityFields(filter: Document): Document {
  const out: Document = {};
  const paths: string[] = [];
  const add = (path: string, value: unknown): void => {
    for (const existing of paths) {
      if (existing === path) {
        throw new CommandError(
          'NotSingleValueField',
          `cannot infer query fields to set, path '${path}' is matched twice`,
        );
      }
      if (existing.startsWith(path + '.') || path.startsWith(existing + '.')) {
        throw new CommandError(
          'NotSingleValueField',
          `cannot infer query fields to set, both paths '${path}' and '${existing}' are matched`,
        );
      }
    }
    paths.push(path);
    parsePath(path);
    setField(out, path, cloneValue(value));
  };
  const collect = (f: Document): void => {
    for (const key in f) {
      const value = f[key];
      if (key === '$and') {
        if (Array.isArray(value)) for (const sub of value) if (isDocument(sub)) collect(sub);
        continue;
      }
      if (key === '$or') {
        if (Array.isArray(value) && value.length === 1 && isDocument(value[0])) collect(value[0]);
        continue;
      }
      if (key.charCodeAt(0) === 36) continue;
      if (isExpressionDocument(value, false)) {
        const ops = value as Document;
        for (const op in ops) {
          const arg = ops[op];
          if (op === '$eq' && !isRegexValue(arg)) add(key, arg);
          else if (op === '$in' && Array.isArray(arg) && arg.length === 1 && !isRegexValue(arg[0])) add(key, arg[0]);
        }
        continue;
      }
      if (isRegexValue(value)) continue;
      add(key, value);
    }
  };
  collect(filter);
  return out;
}
