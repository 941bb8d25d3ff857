/**
 * find()/findAndModify projections: `compileProjection(spec)` parses once (mongod's errors at
 * compile time) and returns a function that builds a new projected document.
 * See projection_ast.ts (grammar, errors) and projection_executor.ts (semantics). The positional
 * `a.$` projects the array element the query (`options.query`) matched.
 * Not supported yet (238 NotImplemented): `$meta`.
 */
import type { Document } from '../../bson/library.js';
import { parseProjection } from './projection_ast.js';
import { buildProjection } from './projection_executor.js';
import { compilePositionalMatcher } from '../query/positional_match.js';
import type { Collator } from '../values/collator.js';
import { ExpressionContext } from '../expression/context.js';
import type { CommandVariables } from '../expression/let.js';
import { addTopLevelField } from '../values/paths.js';

/** A compiled projection: returns a NEW document, never mutates its input. */
export type Projector = (doc: Document) => Document;

/** A projector that notes the top-level fields it reads (`projectorFields`). */
interface NotedProjector extends Projector {
  fields?: readonly string[] | null;
}

/**
 * The top-level fields a compiled projection reads, or null when it may read any (an exclusion,
 * an expression, `$slice`, `$elemMatch`, the positional `a.$`). A document holding only those
 * fields of a stored one projects exactly as the whole does, so a reader decodes only them
 * (`documentFields`).
 */
export function projectorFields(project: Projector): readonly string[] | null {
  return (project as NotedProjector).fields ?? null;
}

/**
 * The top-level fields of an inclusion projection made only of 1/true (and `_id` 0/false): each
 * included path's first part, and `_id` unless excluded; null for any other projection.
 */
function inclusionFields(spec: Document): string[] | null {
  const fields: string[] = [];
  let idIncluded = true;
  for (const path in spec) {
    const v = spec[path];
    if (path === '_id' && (v === 0 || v === false)) {
      idIncluded = false;
      continue;
    }
    if ((v !== 1 && v !== true) || path.includes('$')) return null;
    addTopLevelField(fields, path);
  }
  if (fields.length === 0) return null; // `{_id: 0}` alone excludes
  if (idIncluded && !fields.includes('_id')) fields.push('_id');
  return fields;
}

/** Options of `compileProjection`. */
export interface ProjectionOptions {
  /** The value of `$$NOW` in computed fields (defaults to the Unix epoch). */
  readonly now?: Date;
  /** The query the documents matched (the positional `a.$` projects its matched element). */
  readonly query?: Document;
  /** The query's collation (`queryCollator`; null or absent: simple). */
  readonly collator?: Collator | null;
  /** The command's `let` variables, which computed fields may read. */
  readonly variables?: CommandVariables;
}

const EPOCH = new Date(0);

/** Compiles a find projection (throws CommandError with mongod's codes and messages). */
export function compileProjection(spec: Document, options: ProjectionOptions = {}): Projector {
  const collator = options.collator ?? null;
  const expressions = new ExpressionContext({ now: options.now ?? EPOCH, collator, variables: options.variables });
  const parsed = parseProjection(spec, 'find', collator, expressions.scope);
  const apply = buildProjection(parsed, 'find', compilePositionalMatcher(options.query ?? {}, collator));
  const project: NotedProjector = (doc) => apply(doc, expressions.frame(doc));
  project.fields = inclusionFields(spec);
  return project;
}

/** True when a find projection leaves documents as they are (absent or `{}`). */
export function isIdentityProjection(spec: Document | undefined): boolean {
  if (spec === undefined || spec === null) return true;
  for (const _ in spec) return false;
  return true;
}
