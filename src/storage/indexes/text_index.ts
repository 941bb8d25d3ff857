/**
 * The text index kind (mongod's `FTSSpec::fixSpec` and its checks): the stored spec of a text
 * index, its key rewritten as `{ <prefix fields>, _fts: 'text', _ftsx: 1, <suffix fields> }`, the
 * text fields moved into `weights` (with those given), and `default_language`,
 * `language_override` and `textIndexVersion` (3) filled in. Refused with 67 CannotCreateIndex:
 * text fields that are not adjacent, weights that are not an object (or "$**") or not numbers in
 * (0, 99999], a weight path with an empty or `$` component, a textIndexVersion that is not a
 * number 1 to 3, a default language text search does not know. What text search makes of the
 * stored spec is in `../text/text_index_spec.ts`.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { findLanguage } from '../text/language.js';

const MAX_WORD_WEIGHT = 100000;

function fail(why: string): never {
  throw new CommandError('CannotCreateIndex', why);
}

/** Checks a text index spec's key and text options (mongod's errors, all 67). */
function checkTextSpec(spec: Document): void {
  const key = spec.key as Document;
  // Prefix fields, then the text fields (or _fts/_ftsx), then suffix fields: never a text field after a suffix.
  let phase: 'prefix' | 'text' | 'suffix' = 'prefix';
  for (const [field, value] of Object.entries(key)) {
    const isText = value === 'text' || field === '_fts' || field === '_ftsx';
    if (isText) {
      if (phase === 'suffix') fail("'text' fields in index must all be adjacent");
      phase = 'text';
    } else if (phase === 'text') {
      phase = 'suffix';
    }
  }
  const weights = spec.weights;
  if (weights !== undefined && bsonTypeOf(weights) !== 'object' && weights !== '$**') fail("text index option 'weights' must be an object");
  if (bsonTypeOf(weights) === 'object') {
    for (const [path, w] of Object.entries(weights as Document)) {
      if (!isNumber(w)) fail('weight for text index needs numeric type');
      const weight = toDouble(w);
      if (!(weight > 0 && weight < MAX_WORD_WEIGHT)) fail('score for word too high');
      if (path === '$**') continue;
      if (path === '') fail('weight cannot be on an empty field');
      for (const part of path.split('.')) {
        if (part === '') fail('weight cannot have empty path component');
        if (part.startsWith('$')) fail('weight cannot have path component with $ prefix');
      }
    }
  }
  const version = spec.textIndexVersion;
  if (version !== undefined) {
    if (!isNumber(version) || bsonTypeOf(version) === 'decimal') fail("text index option 'textIndexVersion' must be a number");
    const v = Math.trunc(toDouble(version));
    if (v < 1 || v > 3) fail(`Currently only textIndexVersion 1, 2 and 3 are supported, got: ${v}`);
  }
  const language = spec.default_language;
  if (typeof language === 'string' && findLanguage(language) === null) fail('default_language is not valid');
}

/** fts::FTSSpec::fixSpec: the key as `{ ..., _fts: 'text', _ftsx: 1, ... }`, the text options appended. */
export function fixTextSpec(spec: Document): Document {
  checkTextSpec(spec);
  const key = spec.key as Document;
  const weights: Document = {};
  const fixedKey: Document = {};
  let textDone = false;
  for (const [field, value] of Object.entries(key)) {
    if (value === 'text') {
      weights[field] = 1;
      if (!textDone) {
        fixedKey._fts = 'text';
        fixedKey._ftsx = 1;
        textDone = true;
      }
      continue;
    }
    if (field === '_fts' || field === '_ftsx') continue;
    fixedKey[field] = value;
  }
  if (bsonTypeOf(spec.weights) === 'object') {
    for (const [field, w] of Object.entries(spec.weights as Document)) weights[field] = w;
  } else if (spec.weights === '$**') {
    weights['$**'] = 1;
  }
  const out: Document = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'key') out.key = fixedKey;
    else if (k === 'weights' || k === 'default_language' || k === 'language_override' || k === 'textIndexVersion') continue;
    else out[k] = v;
  }
  const sortedWeights: Document = {};
  for (const field of Object.keys(weights).sort()) sortedWeights[field] = weights[field];
  out.weights = sortedWeights;
  out.default_language = spec.default_language ?? 'english';
  out.language_override = spec.language_override ?? 'language';
  out.textIndexVersion = spec.textIndexVersion ?? 3;
  return out;
}

