/**
 * What the plan cache and index filter commands share (mongod's `plan_cache_commands.cpp`):
 * the collection they name (`parseNsCollectionRequired`; a view is 166) and the query shape of
 * their `query`/`sort`/`projection`/`collation` arguments (`canonicalize`: each checked, then
 * parsed as a find would be, with a find's errors).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Collection } from '../../storage/collection.js';
import { normaliseCollation } from '../../storage/indexes/collation.js';
import { normaliseFilter } from '../../storage/planner/predicates.js';
import type { QueryShapeParts } from '../../storage/planner/query_shape.js';
import { compileProjection } from '../../storage/projection/compile_projection.js';
import { compileQuery } from '../../storage/query/compile_query.js';
import { compileSort } from '../../storage/query/sort.js';
import { Collator } from '../../storage/values/collator.js';
import { isDocument } from '../../storage/values/paths.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { naturalDirection } from '../../storage/planner/plan.js';
import { collectionArg } from '../args.js';
import type { CommandContext } from '../types.js';

/** The collection the command names (undefined: it does not exist); 73 for a bad name, 166 for a view. */
export function planCacheCollection(ctx: CommandContext, cmd: Document, commandField: string): Collection | undefined {
  const name = collectionArg(cmd, commandField, ctx.db);
  if (name.includes('\0')) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.${name}'`);
  const coll = ctx.server.catalog.get(ctx.db, name);
  if (!coll && ctx.server.catalog.view(ctx.db, name)) throw viewNotCollectionError(ctx.db, name);
  return coll;
}

/** A checked query shape: the arguments as given (what planCacheListFilters shows) and its parts. */
export interface ShapeArgs {
  readonly query: Document;
  readonly sort: Document;
  readonly projection: Document;
  readonly collation: Document | null;
  readonly parts: QueryShapeParts;
}

/**
 * An object argument as mongod reads it (`isABSONObj`): a document, or an array read as the
 * document of its indexes (`[x]` is `{'0': x}`); undefined for any other type.
 */
function asObject(value: unknown): Document | undefined {
  if (isDocument(value)) return value;
  if (Array.isArray(value)) return Object.fromEntries(value.map((item, i) => [String(i), item]));
  return undefined;
}

/** An optional object argument of the shape (`sort`, `projection`), checked as mongod does. */
function optionalObject(cmd: Document, field: 'sort' | 'projection'): Document {
  const value = cmd[field];
  if (value === undefined) return {};
  const doc = asObject(value);
  if (doc === undefined) throw new CommandError('BadValue', `optional field ${field} must be an object`);
  return doc;
}

/** mongod's `canonicalize`: the query shape of the command's arguments, each checked and parsed. */
export function queryShapeArgs(ctx: CommandContext, cmd: Document): ShapeArgs {
  if (cmd.query === undefined) throw new CommandError('BadValue', 'required field query missing');
  const query = asObject(cmd.query);
  if (query === undefined) throw new CommandError('BadValue', 'required field query must be an object');
  const sort = optionalObject(cmd, 'sort');
  const projection = optionalObject(cmd, 'projection');
  let collation: Document | null = null;
  if (cmd.collation !== undefined) {
    if (!isDocument(cmd.collation) && !Array.isArray(cmd.collation)) throw new CommandError('BadValue', 'optional field collation must be an object');
    if (Object.keys(cmd.collation as Document).length === 0) throw new CommandError('BadValue', 'optional field collation cannot be an empty object');
    collation = normaliseCollation(asObject(cmd.collation)!);
  }
  // Parsed as a find of that shape would be: its errors are the find's.
  const collator = collation === null ? null : new Collator(collation);
  const now = ctx.now();
  compileQuery(query, now, undefined, collator);
  if (Object.keys(sort).length > 0 && naturalDirection(sort) === null) compileSort(sort, collator);
  if (Object.keys(projection).length > 0) compileProjection(projection, { now: new Date(now), query, collator });
  return {
    query,
    sort,
    projection,
    collation: cmd.collation === undefined ? null : (cmd.collation as Document),
    parts: { parsedQuery: normaliseFilter(query, collator), sort, projection, collation },
  };
}

/** Without `query`, a shape's other parts are refused (so that nothing is cleared by mistake). */
export function checkNoShapeWithoutQuery(cmd: Document): void {
  if (cmd.sort !== undefined || cmd.projection !== undefined || cmd.collation !== undefined) {
    throw new CommandError('BadValue', 'sort, projection, or collation provided without query');
  }
}
