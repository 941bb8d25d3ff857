/** `distinct`: the distinct values of a field among matching documents, arrays unwound. */
import { CommandError } from '../../errors/command_error.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compareValues } from '../../storage/values/compare.js';
import { keyString } from '../../storage/values/key_string.js';
import { collectionArg, docArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { checkCollation, checkHint, orderedRecords } from './query_exec.js';
import { distinctOnView, viewFor } from './view_reads.js';

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

/** The `distinct` command. */
export const distinct: CommandDefinition = {
  name: 'distinct',
  target: { type: 'string' },
  args: {
    key: { type: 'string', required: true },
    query: { type: 'object' },
    collation: { type: 'object' },
    hint: { type: ['object', 'string'] },
  },
  help: '{ distinct : \'collection name\' , key : \'a.b\' , query : {} }',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'distinct', ctx.db);
    const view = viewFor(ctx, name);
    if (view) return distinctOnView(ctx, cmd, view); // a view reads as an aggregation
    const key = cmd.key as string;
    if (key.length === 0) throw new CommandError('BadValue', 'FieldPath cannot be constructed with empty string');
    checkCollation(cmd.collation);
    const filter = docArg(cmd, 'query') ?? {};
    const predicate = compileQuery(filter, ctx.now());
    ctx.server.counters.opcounters.command++;
    const coll = ctx.server.catalog.get(ctx.db, name);
    checkHint(coll, cmd.hint);
    if (!coll) return { values: [] };
    const parts = key.split('.');
    const seen = new Map<string, unknown>();
    for (const rec of orderedRecords(coll, { filter, predicate }, ctx.now)) {
      const found: unknown[] = [];
      valuesAt(rec.doc, parts, 0, found);
      for (const v of found) {
        const ks = keyString(v);
        if (!seen.has(ks)) seen.set(ks, v);
      }
    }
    const values = [...seen.values()].sort(compareValues);
    return { values };
  },
};
