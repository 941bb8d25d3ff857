/** `count`: number of matching documents, with skip, limit and a hinted index. */
import { CommandError } from '../../errors/command_error.js';
import { INT64_MIN, isNumber, parseIntegerToLong, safeNumberLong, unwrapOrFailedToParse } from '../../storage/values/numeric.js';
import { IdlRules, checkNonNegative, collectionArg, docArg, intArg } from '../args.js';
import type { ArgRule, CommandDefinition } from '../types.js';
import { checkCollation, orderedRecords, queryCollator } from './query_exec.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { parseMaxTimeMS } from '../read_write_concern.js';
import { commandTimeLimit } from './time_limit.js';
import { countOnView, viewFor } from './view_reads.js';

/**
 * `countLimit` (`count_request::countParseLimit`): a number (2 BadValue otherwise) that
 * `parseIntegerElementToLong` accepts (9 FailedToParse for a fractional, NaN or huge number);
 * its absolute value is the limit.
 */
const countLimit: ArgRule = {
  type: 'any',
  parse(value, field) {
    if (!isNumber(value)) throw new CommandError('BadValue', 'limit value is not a valid number');
    const limit = unwrapOrFailedToParse(parseIntegerToLong(field, value));
    if (limit === INT64_MIN) throw new CommandError('BadValue', 'limit value for count cannot be min long');
  },
};

/** The `count` command (`CountCommandRequest` in count_command.idl). */
export const count: CommandDefinition = {
  name: 'count',
  target: IdlRules.collectionName,
  args: {
    query: { type: 'object' },
    limit: countLimit,
    // A number whose `safeNumberLong` is not negative (2 BadValue otherwise, mongod 8.2).
    skip: {
      type: 'any',
      parse(value, field, idl) {
        if (value !== null) checkNonNegative(`${idl}.${field}`, field, value);
      },
    },
    hint: IdlRules.indexHint,
    collation: { type: 'object' },
    // Added by old shells; mongod ignores it without looking at its type.
    fields: { type: 'any' },
    mirrored: IdlRules.optionalBool,
  },
  concerns: { readConcern: 'notSnapshot', writeConcern: false },
  help: 'count objects in collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'count', ctx.db);
    const view = viewFor(ctx, name);
    if (view) return countOnView(ctx, cmd, view); // a view reads as an aggregation
    const collation = checkCollation(cmd.collation);
    const coll = ctx.server.catalog.get(ctx.db, name);
    const collator = queryCollator(coll, collation);
    const filter = docArg(cmd, 'query') ?? {};
    const predicate = compileQuery(filter, ctx.now(), undefined, collator);
    const skip = cmd.skip === undefined || cmd.skip === null ? 0 : Number(safeNumberLong(cmd.skip));
    const limit = Math.abs(intArg(cmd, 'limit', 0));
    ctx.server.counters.opcounters.command++;
    if (!coll) return { n: 0 };
    let n = 0;
    const records = orderedRecords(coll, { filter, predicate, skip, limit, hint: cmd.hint, collator }, ctx.now);
    const maxTimeMS = parseMaxTimeMS(cmd.maxTimeMS, 'count');
    const timeLimit = commandTimeLimit(ctx, maxTimeMS);
    for (const _ of timeLimit ? timeLimit.checked(records) : records) n++;
    return { n };
  },
};
