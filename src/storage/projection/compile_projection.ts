/**
 * find()/findAndModify projections: `compileProjection(spec)` parses once (mongod's errors at
 * compile time) and returns a function that builds a new projected document.
 * See projection_ast.ts (grammar, errors) and projection_executor.ts (semantics).
 * Not supported yet (238 NotImplemented): the positional operator (`a.$`), `$meta`.
 */
import type { Document } from '../../bson.js';
import { parseProjection } from './projection_ast.js';
import { buildProjection } from './projection_executor.js';

/** A compiled projection: returns a NEW document, never mutates its input. */
export type Projector = (doc: Document) => Document;

/** Options of `compileProjection`. */
export interface ProjectionOptions {
  /** The value of `$$NOW` in computed fields (defaults to the Unix epoch). */
  readonly now?: Date;
}

const EPOCH = new Date(0);

/** Compiles a find projection (throws CommandError with mongod's codes and messages). */
export function compileProjection(spec: Document, options: ProjectionOptions = {}): Projector {
  const apply = buildProjection(parseProjection(spec, 'find'), 'find');
  const now = options.now ?? EPOCH;
  return (doc) => apply(doc, { root: doc, now });
}

/** True when a find projection leaves documents as they are (absent or `{}`). */
export function isIdentityProjection(spec: Document | undefined): boolean {
  if (spec === undefined || spec === null) return true;
  for (const _ in spec) return false;
  return true;
}
