/**
 * The top-level fields of its input documents a pipeline reads, when they can be known: then
 * the collection's stored documents are decoded only as far as those fields (`documentFields`),
 * as mongod's dependency analysis (DepsTracker) lets it read only what a pipeline needs.
 *
 * The walk goes through stages that pass documents on while reading some of their fields
 * ($match, $sort, $limit, $skip, $unwind, $addFields/$set, $unset) and ends at the first stage
 * that builds new documents from what it read ($group, $count, an inclusion $project): the
 * stages after it never see an input document. Anything else, or a pipeline that passes its
 * input documents through to the end, reads them whole (null). Expressions are read
 * conservatively: every string starting with one `$` counts as a field path (a literal one only
 * adds a field), and `$$ROOT`, `$$CURRENT` and the operators that read a field named by a value
 * ($getField, $setField, $unsetField) or run code make the answer null.
 */
import type { Document } from '../../bson/library.js';
import { filterFields } from '../query/compile_filter.js';
import { sortFields } from '../query/sort.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { addTopLevelField, isDocument } from '../values/paths.js';

/** Operators whose reads an expression walk cannot see. */
const OPAQUE_OPERATORS = new Set(['$getField', '$setField', '$unsetField', '$function', '$accumulator', '$meta', '$where']);

/** The top-level fields of its input documents `stages` read, or null for whole documents. */
export function pipelineFields(stages: readonly Document[]): string[] | null {
  const fields: string[] = [];
  for (const stage of stages) {
    const name = Object.keys(stage)[0];
    const spec = stage[name!];
    switch (name) {
      case '$match':
        if (!isDocument(spec) || filterFields(spec, fields) === null) return null;
        break;
      case '$sort':
        if (!isDocument(spec)) return null;
        for (const f of sortFields(spec)) addTopLevelField(fields, f);
        break;
      case '$limit':
      case '$skip':
      case '$unset':
        break;
      case '$unwind': {
        const path = isDocument(spec) ? spec.path : spec;
        if (!expressionFields(path, fields)) return null;
        break;
      }
      case '$addFields':
      case '$set':
        if (!isDocument(spec)) return null;
        for (const key in spec) if (!expressionFields(spec[key], fields)) return null;
        break;
      case '$count':
        return fields;
      case '$group':
        return isDocument(spec) && groupFields(spec, fields) ? fields : null;
      case '$project':
        return isDocument(spec) && projectFields(spec, fields) ? fields : null;
      default:
        return null;
    }
  }
  return null; // the input documents reach the output
}

/** Adds the fields `expr` reads to `fields`; false when it may read the whole document. */
function expressionFields(expr: unknown, fields: string[]): boolean {
  if (typeof expr === 'string') {
    if (expr.startsWith('$$')) {
      const variable = expr.slice(2);
      const dot = variable.indexOf('.');
      const root = dot < 0 ? variable : variable.slice(0, dot);
      if (root !== 'ROOT' && root !== 'CURRENT') return true; // $$NOW, $$this, a `let` name...
      if (dot < 0) return false;
      addTopLevelField(fields, variable.slice(dot + 1));
      return true;
    }
    if (expr.startsWith('$')) addTopLevelField(fields, expr.slice(1));
    return true;
  }
  if (Array.isArray(expr)) return expr.every((e) => expressionFields(e, fields));
  if (!isDocument(expr)) return true;
  for (const key in expr) {
    if (key === '$literal') continue;
    if (OPAQUE_OPERATORS.has(key)) return false;
    if (!expressionFields(expr[key], fields)) return false;
  }
  return true;
}

/** Adds what `{$group: spec}` reads; false when it may read whole documents. */
function groupFields(spec: Document, fields: string[]): boolean {
  for (const key in spec) {
    const value = spec[key];
    if (key === '_id') {
      if (!expressionFields(value, fields)) return false;
      continue;
    }
    // An accumulator: {$op: argument}; $top/$bottom(N) also name fields in `sortBy`.
    if (!isDocument(value)) return false;
    for (const op in value) {
      const arg = value[op];
      if (isDocument(arg) && isDocument(arg.sortBy)) for (const f of sortFields(arg.sortBy)) addTopLevelField(fields, f);
      if (OPAQUE_OPERATORS.has(op) || !expressionFields(arg, fields)) return false;
    }
  }
  return true;
}

/** True when `doc`'s first key names an operator (an expression, not a nested specification). */
function isOperator(doc: Document): boolean {
  for (const key in doc) return key.startsWith('$');
  return false;
}

/** False when the nested projection `spec` excludes a field anywhere (0 or false). */
function inclusionOnly(spec: Document): boolean {
  for (const key in spec) {
    const value = spec[key];
    if (value === false || (isNumber(value) && toDouble(value) === 0)) return false;
    if (isDocument(value) && !isOperator(value) && !inclusionOnly(value)) return false;
  }
  return true;
}

/** Adds what an inclusion `{$project: spec}` reads; false for an exclusion or anything unknown. */
function projectFields(spec: Document, fields: string[]): boolean {
  let idIncluded = true;
  let included = false;
  for (const key in spec) {
    const value = spec[key];
    // A number or boolean includes (non-zero, true) or excludes (zero, false) the field.
    const flag = typeof value === 'boolean' ? value : isNumber(value) ? toDouble(value) !== 0 : undefined;
    if (flag === false) {
      if (key !== '_id') return false; // an exclusion passes the other fields on
      idIncluded = false;
      continue;
    }
    included = true;
    if (flag === true) addTopLevelField(fields, key);
    else if (isDocument(value) && !isOperator(value)) {
      // A nested specification ({a: {b: 1}}): the field, unless it excludes something.
      if (!inclusionOnly(value)) return false;
      addTopLevelField(fields, key);
      if (!expressionFields(value, fields)) return false;
    } else if (!expressionFields(value, fields)) return false;
  }
  if (!included) return false;
  if (idIncluded) addTopLevelField(fields, '_id');
  return true;
}
