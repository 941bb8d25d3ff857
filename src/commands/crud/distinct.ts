/** `distinct`: the distinct values of a field among matching documents, arrays unwound. */
import { CommandError } from '../../errors/command_error.js';
import { documentFields } from '../../storage/record.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compareValues } from '../../storage/values/compare.js';
import { collationKeyString } from '../../storage/values/key_string.js';
import { IdlRules, collectionArg, docArg, typeMismatch } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkCollation, orderedRecords, queryCollator } from './query_exec.js';
import { parseMaxTimeMS } from '../read_write_concern.js';
import { commandTimeLimit } from './time_limit.js';
import { distinctOnView, viewFor } from './view_reads.js';
import { distinctShape } from '../../storage/planner/command_shape.js';
import { checkNotRejected } from '../query_settings/_internal.js';

/** Values at a dotted path, descending into arrays of subdocuments, arrays unwound one level. */
function valuesAt(value: unknown, parts: string[], i: number, out: unknown[]): void {
  if (value === undefined) return;
  if (i === parts.length) {
    if (Array.isArray(value)) for (const el of value) out.push(el);
    else out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    const part = parts[i]!;
    if (/^\d+$/.test(part)) valuesAt(value[Number(part)], parts, i + 1, out);
    for (const el of value) if (el !== null && typeof el === 'object' && !Array.isArray(el)) valuesAt(el, parts, i, out);
    return;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    valuesAt((value as Record<string, unknown>)[parts[i]!], parts, i + 1, out);
  }
}

/** The `distinct` command (`DistinctCommandRequest` in distinct_command.idl). */
export const distinct: CommandDefinition = {
  name: 'distinct',
  target: IdlRules.collectionName,
  args: {
    // A string (null reads as missing: 40414), without an embedded NUL (31032).
    key: {
      type: 'string',
      required: true,
      parse(value, field, idl) {
        if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
        if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
        if (value.includes('\0')) throw new CommandError(31032, 'Key field cannot contain an embedded null byte');
      },
    },
    query: { type: 'object' },
    collation: { type: 'object' },
    hint: IdlRules.indexHint,
    mirrored: IdlRules.optionalBool,
  },
  concerns: { readConcern: 'all', writeConcern: false },
  help: '{ distinct : \'collection name\' , key : \'a.b\' , query : {} }',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'distinct', ctx.db);
    const view = viewFor(ctx, name);
    if (view) return distinctOnView(ctx, cmd, view); // a view reads as an aggregation
    const key = cmd.key as string;
    const collation = checkCollation(cmd.collation);
    checkNotRejected(ctx.server, () => distinctShape({ db: ctx.db, coll: name }, cmd));
    const coll = ctx.server.catalog.get(ctx.db, name);
    const collator = queryCollator(coll, collation);
    const filter = docArg(cmd, 'query') ?? {};
    const predicate = compileQuery(filter, ctx.now(), undefined, collator);
    ctx.server.counters.opcounters.command++;
    if (!coll) return { values: [] };
    const parts = key.split('.');
    const fields = [parts[0]!]; // only the key's top-level field is decoded
    // Values equal under the collation are one value (the first one met).
    const seen = new Map<string, unknown>();
    const records = orderedRecords(coll, { filter, predicate, collator, hint: cmd.hint }, ctx.now);
    const maxTimeMS = parseMaxTimeMS(cmd.maxTimeMS, 'distinct');
    // Past maxTimeMS between two documents: 50.
    const timeLimit = commandTimeLimit(ctx, maxTimeMS);
    for (const rec of timeLimit ? timeLimit.checked(records) : records) {
      const found: unknown[] = [];
      valuesAt(documentFields(rec, fields), parts, 0, found);
      for (const v of found) {
        const ks = collationKeyString(v, collator);
        if (!seen.has(ks)) seen.set(ks, v);
      }
    }
    const values = [...seen.values()].sort((a, b) => compareValues(a, b, collator));
    return { values };
  },
};
