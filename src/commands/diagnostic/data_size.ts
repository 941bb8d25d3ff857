/**
 * `dataSize`: the BSON size and count of a collection's documents (dbcommands.cpp
 * `CmdDatasize`), or of those whose `keyPattern` key lies in `[min, max)` — the key pattern must
 * prefix an index of the collection (it is inferred from `min` when absent). A missing
 * collection is all zeros; a view is 166.
 */
import { Long, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compareValues } from '../../storage/values/compare.js';
import { getField, isDocument } from '../../storage/values/paths.js';
import { recordSize } from '../../storage/record.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { IdlRules, boolArg } from '../args.js';
import { typeMismatch } from '../idl_errors.js';
import type { ArgRule, CommandDefinition } from '../types.js';

/** IDL `object` (null reads as absent). */
const objectRule: ArgRule = {
  type: 'object',
  parse(value, field, idl) {
    if (value !== null && !isDocument(value)) throw typeMismatch(`${idl}.${field}`, value, ['object']);
  },
};

/** The namespace: a string, null read as missing (40414). */
const namespaceRule: ArgRule = {
  type: 'string',
  required: true,
  parse(value, field, idl) {
    if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
    if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
  },
};

/** Whether the fields of `pattern` are, in order, a prefix of the key of `indexKey`. */
function isPrefixOf(pattern: Document, indexKey: Document): boolean {
  const want = Object.keys(pattern);
  const have = Object.keys(indexKey);
  return want.length <= have.length && want.every((f, i) => have[i] === f);
}

/** Compares the `keyPattern` key of `doc` with the bound `bound` (field by field, direction applied). */
function compareKey(doc: Document, bound: Document, fields: readonly [string, number][]): number {
  const boundValues = Object.values(bound);
  for (let i = 0; i < fields.length; i++) {
    const [path, direction] = fields[i]!;
    const v = getField(doc, path);
    const c = compareValues(v === undefined ? null : v, boundValues[i] === undefined ? null : boundValues[i]);
    if (c !== 0) return direction < 0 ? -c : c;
  }
  return 0;
}

/** The `dataSize` command. */
export const dataSize: CommandDefinition = {
  name: 'dataSize',
  aliases: ['datasize'],
  target: namespaceRule,
  args: { keyPattern: objectRule, min: objectRule, max: objectRule, estimate: IdlRules.safeBool },
  concerns: { readConcern: 'localOnly', writeConcern: false },
  help: 'determine data size for a set of data in a certain range\nexample: { dataSize:"blog.posts", keyPattern:{x:1}, min:{x:10}, max:{x:55} }',
  run(ctx, cmd) {
    const ns = cmd.dataSize as string;
    const dot = ns.indexOf('.');
    if (dot <= 0 || dot === ns.length - 1) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ns}'`);
    const db = ns.slice(0, dot);
    const name = ns.slice(dot + 1);
    const min = isDocument(cmd.min) ? cmd.min : undefined;
    const max = isDocument(cmd.max) ? cmd.max : undefined;
    let keyPattern = isDocument(cmd.keyPattern) ? cmd.keyPattern : undefined;
    const estimate = cmd.estimate === undefined || cmd.estimate === null ? undefined : boolArg(cmd, 'estimate', false);
    const ranged = min !== undefined || max !== undefined;
    if (ranged && (min === undefined || max === undefined)) {
      throw new CommandError('BadValue', 'only one of min or max specified');
    }
    const coll = ctx.server.catalog.get(db, name);
    if (coll === undefined) {
      if (ctx.server.catalog.view(db, name)) throw viewNotCollectionError(db, name);
      return { ...(estimate === undefined ? {} : { estimate }), size: Long.fromNumber(0), numObjects: Long.fromNumber(0), millis: 0 };
    }
    const now = ctx.now();
    let fields: [string, number][] | undefined;
    if (ranged) {
      keyPattern ??= Object.fromEntries(Object.keys(min!).map((k) => [k, 1]));
      const pattern = keyPattern;
      const index = coll.indexSpecs().find((spec) => isDocument(spec.key) && isPrefixOf(pattern, spec.key));
      if (index === undefined) throw new CommandError('OperationFailed', `couldn't find valid index containing key pattern`);
      fields = Object.entries(pattern).map(([f, d]) => [f, typeof d === 'number' && d < 0 ? -1 : 1]);
    }
    let size = 0;
    let count = 0;
    for (const rec of coll.scan(() => now)) {
      if (fields !== undefined) {
        const doc = rec.doc;
        if (compareKey(doc, min!, fields) < 0 || compareKey(doc, max!, fields) >= 0) continue;
      }
      size += recordSize(rec);
      count++;
    }
    return { ...(estimate === undefined ? {} : { estimate }), size: Long.fromNumber(size), numObjects: Long.fromNumber(count), millis: 0 };
  },
};
