/**
 * find()/findAndModify projections: `compileProjection(spec)` parses once (mongod's errors at
 * compile time) and returns a function that builds a new projected document.
 * See projection_ast.ts (grammar, errors) and projection_executor.ts (semantics). The positional
 * `a.$` projects the array element the query (`options.query`) matched.
 * Not supported yet (238 NotImplemented): `$meta`.
 */
import type { Document } from '../../bson.js';
import { parseProjection } from './projection_ast.js';
import { buildProjection } from './projection_executor.js';
import { compilePositionalMatcher } from '../update/positional_match.js';
import type { Collator } from '../values/collator.js';

/** A compiled projection: returns a NEW document, never mutates its input. */
export type Projector = (doc: Document) => Document;

/** Options of `compileProjection`. */
export interface ProjectionOptions {
  /** The value of `$$NOW` in computed fields (defaults to the Unix epoch). */
  readonly now?: Date;
  /** The query the documents matched (the positional `a.$` projects its matched element). */
  readonly query?: Document;
  /** The query's collation (`queryCollator`; null or absent: simple). */
  readonly collator?: Collator | null;
}

const EPOCH = new Date(0);

/** Compiles a find projection (throws CommandError with mongod's codes and messages). */
export function compileProjection(spec: Document, options: ProjectionOptions = {}): Projector {
  const collator = options.collator ?? null;
  const parsed = parseProjection(spec, 'find', collator);
  const apply = buildProjection(parsed, 'find', compilePositionalMatcher(options.query ?? {}, collator));
  const now = options.now ?? EPOCH;
  if (collator === null) return (doc) => apply(doc, { root: doc, now });
  return (doc) => apply(doc, { root: doc, now, collator });
}

/** True when a find projection leaves documents as they are (absent or `{}`). */
export function isIdentityProjection(spec: Document | undefined): boolean {
  if (spec === undefined || spec === null) return true;
  for (const _ in spec) return false;
  return true;
}
