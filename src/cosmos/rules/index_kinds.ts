/**
 * Rule `indexKinds`: the index kinds and options Azure Cosmos DB for MongoDB (RU) does not build:
 * text, 2d and hashed keys, `sparse`, `collation`, `partialFilterExpression` without `unique`
 * (the page supports partial filters only on unique indexes), and wildcard indexes that are
 * compound, unique or have a `wildcardProjection`. The pages give no error text for these: Mayfly
 * answers 115 CommandNotSupported (the code the error-codes page gives for "The attempted request
 * is not supported") with a message naming what is refused.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';

/** The key kinds refused. */
const REFUSED_KINDS = ['2d', 'hashed', 'text'];

function refuse(what: string): never {
  throw new CommandError('CommandNotSupported', `${what} is not supported.`);
}

/** Throws 115 when `spec` (a normalised index spec) is of a kind or has an option Cosmos DB refuses. */
export function cosmosCheckIndexKind(spec: Document): void {
  const key = spec.key as Document;
  const fields = Object.keys(key);
  for (const field of fields) {
    const kind = key[field];
    if (typeof kind === 'string' && REFUSED_KINDS.includes(kind)) refuse(`Index type '${kind}'`);
  }
  if (spec.sparse === true) refuse("The index option 'sparse'");
  if (spec.collation !== undefined) refuse("The index option 'collation'");
  if (spec.partialFilterExpression !== undefined && spec.unique !== true) refuse("The index option 'partialFilterExpression' without 'unique: true'");
  const wildcard = fields.some((f) => f === '$**' || f.endsWith('.$**'));
  if (wildcard) {
    if (fields.length > 1) refuse('A compound wildcard index');
    if (spec.unique === true) refuse('A unique wildcard index');
    if (spec.wildcardProjection !== undefined) refuse("The index option 'wildcardProjection'");
  }
}
