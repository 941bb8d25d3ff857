/**
 * `$mergeObjects` (accumulator_merge_objects.cpp; 8.2's SBE `$group` code 5911200): the fields
 * of every input document, a later value of a field replacing an earlier one in its place;
 * null and missing inputs are skipped, any other non-document is an error. A field whose value
 * is missing is not set.
 */
import { CommandError } from '../../errors/command_error.js';
import type { Document } from '../../bson/library.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { docValueToString } from '../values/format.js';
import { isNullish, MISSING } from '../values/missing.js';
import { isDocument } from '../values/paths.js';
import { ValueQueue } from './_internal.js';
import type { Accumulator, AccumulatorDefinition } from './types.js';

class MergeObjectsState implements Accumulator {
  private merged: Document = {};
  /** A removable state's inputs, to merge again when one leaves. */
  private readonly kept: ValueQueue | null;
  constructor(removable: boolean) {
    this.kept = removable ? new ValueQueue() : null;
  }
  add(v: unknown): void {
    if (isNullish(v)) return;
    if (!isDocument(v)) {
      throw new CommandError(
        5911200,
        `$mergeObjects requires object inputs, but input ${docValueToString(v)} is of type ${bsonTypeOf(v)}`,
      );
    }
    this.kept?.push(v);
    mergeInto(this.merged, v);
  }
  remove(v: unknown): void {
    if (isNullish(v) || this.kept === null) return;
    this.kept.shift();
    this.merged = {};
    for (const d of this.kept.values() as Document[]) mergeInto(this.merged, d);
  }
  result(): unknown {
    return { ...this.merged };
  }
  reset(): void {
    this.merged = {};
    this.kept?.clear();
  }
}

function mergeInto(target: Document, source: Document): void {
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value === MISSING || value === undefined) continue;
    target[key] = value;
  }
}

/** `$mergeObjects`. */
export const mergeObjects: AccumulatorDefinition = {
  name: '$mergeObjects',
  argument: 'expression',
  create: (_collator, removable = false) => new MergeObjectsState(removable),
};
