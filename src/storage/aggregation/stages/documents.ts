/**
 * `$documents` (document_source_documents.cpp): the documents of an expression evaluated once
 * against no document (an array of objects; null or missing: none), as mongod's desugaring into
 * `$replaceRoot` of each element checks them (40228). Only first, and only in `{aggregate: 1}`
 * (or a sub-pipeline): it reads nothing.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { formatValue } from '../../values/format.js';
import { MISSING } from '../../values/missing.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$documents: <expression>}`. */
export const documents: StageDefinition = {
  name: '$documents',
  constraints: {
    stream: 'streaming',
    position: 'first',
    input: 'none',
    target: 'database',
    allowedIn: { lookup: true, unionWith: true, transaction: true },
  },
  parse(spec, ctx) {
    const expressions = ctx.expressions;
    const ev = expressions.parse(spec);
    return {
      *run() {
        const value = ev(expressions.frame({}));
        if (value === MISSING || value === null || value === undefined) return;
        for (const item of Array.isArray(value) ? value : [value]) {
          if (!isDocument(item)) {
            throw new CommandError(
              40228,
              `'newRoot' expression must evaluate to an object, but resulting value was: ${formatValue(item)}. Type of resulting value: '${bsonTypeOf(item)}'.`,
            );
          }
          yield item as Document;
        }
      },
    };
  },
};
