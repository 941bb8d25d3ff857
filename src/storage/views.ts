/**
 * Views: read-only namespaces defined by a source (`viewOn`, a collection or another view of the
 * same database) and an aggregation pipeline, as mongod 8.2 keeps them. Definitions live, as in
 * mongod, in the database's `system.views` collection (`{_id: 'db.view', viewOn, pipeline,
 * collation?}`); the catalog reads and writes them there (`Catalog.view`, `putView`,
 * `dropView`). This module holds the definition checks of `create`/`collMod` (mongod's
 * ViewCatalog: pipeline validation, cycle and depth limits) and the resolution of a view into
 * its underlying collection and the pipeline that produces the view's documents.
 * Source: mongo/src/mongo/db/views/view_catalog_helpers.cpp, views_for_database.cpp.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from './values/bson_type.js';
import { parsePipeline, stageName } from './aggregation/pipeline.js';
import { stageNamed } from './aggregation/registry.js';
import { newPipelineContext } from './aggregation/pipeline_context.js';
import { isDocument } from './values/paths.js';

/** The collection that holds a database's view definitions. */
export const SYSTEM_VIEWS = 'system.views';

/** The deepest chain of views on views mongod resolves. */
export const MAX_VIEW_DEPTH = 20;

/** One view of a database. */
export interface ViewDefinition {
  readonly db: string;
  readonly name: string;
  /** The collection or view it reads, in the same database. */
  readonly viewOn: string;
  readonly pipeline: readonly Document[];
  /** The default collation, spelled out; absent for the simple collation. */
  readonly collation?: Document;
}

/** What the catalog answers about views when checking or resolving one. */
export interface ViewLookup {
  view(db: string, name: string): ViewDefinition | undefined;
}

/** A view resolved to what it reads: the collection at the end of the chain and the pipeline. */
export interface ResolvedView {
  /** The view itself. */
  readonly view: ViewDefinition;
  /** The collection name the chain ends at (it may not exist). */
  readonly source: string;
  /** The pipelines of the chain, innermost view first. */
  readonly pipeline: Document[];
}

/** The `system.views` document of a definition. */
export function viewDocument(def: ViewDefinition): Document {
  const doc: Document = { _id: `${def.db}.${def.name}`, viewOn: def.viewOn, pipeline: def.pipeline };
  if (def.collation) doc.collation = def.collation;
  return doc;
}

/** The definition a `system.views` document holds (undefined when it is not one). */
export function viewFromDocument(db: string, doc: Document): ViewDefinition | undefined {
  const id = doc._id;
  if (typeof id !== 'string' || !id.startsWith(`${db}.`) || typeof doc.viewOn !== 'string' || !Array.isArray(doc.pipeline)) return undefined;
  const def: { -readonly [K in keyof ViewDefinition]: ViewDefinition[K] } = {
    db,
    name: id.slice(db.length + 1),
    viewOn: doc.viewOn,
    pipeline: doc.pipeline as Document[],
  };
  if (isDocument(doc.collation)) def.collation = doc.collation;
  return def;
}

/** The `options` listCollections shows for a view. */
export function viewOptions(def: ViewDefinition): Document {
  const options: Document = { viewOn: def.viewOn, pipeline: def.pipeline };
  if (def.collation) options.collation = def.collation;
  return options;
}

/**
 * Checks a view's pipeline as mongod does when it stores a definition: every element an object
 * (`<command>.pipeline.<i>`, 14), no stage that writes (the stage table's `writes`: 167) nor
 * `$changeStream` (167), then every stage parsed as a view's pipeline (its own errors, e.g.
 * 40324 for an unknown stage, and the constraints of a pipeline over a collection).
 */
export function checkViewPipeline(command: string, db: string, name: string, pipeline: readonly unknown[], nowMs: number): Document[] {
  pipeline.forEach((stage, i) => {
    if (!isDocument(stage)) {
      throw new CommandError('TypeMismatch', `BSON field '${command}.pipeline.${i}' is the wrong type '${bsonTypeOf(stage)}', expected type 'object'`);
    }
  });
  const stages = pipeline as Document[];
  const invalid = (why: string): CommandError => new CommandError('OptionNotSupportedOnView', `Invalid pipeline for view ${db}.${name} :: caused by :: ${why}`);
  stages.forEach((stage, i) => {
    const stageKey = stageName(stage);
    if (stageNamed(stageKey)?.constraints.writes) {
      throw invalid(`The aggregation stage ${stageKey} in location ${i} of the pipeline cannot be used in the view definition of ${db}.${name} because it writes to disk`);
    }
    if (stageKey === '$changeStream') throw invalid('$changeStream cannot be used in a view definition');
  });
  parsePipeline(stages, newPipelineContext({ now: new Date(nowMs), collection: name }), 'view');
  return stages;
}

/**
 * Checks that defining `name` as a view on `viewOn` closes no cycle (5 GraphContainsCycle, with
 * mongod's rendering of the path) and keeps every chain within `MAX_VIEW_DEPTH` (165).
 */
export function checkViewGraph(lookup: ViewLookup, db: string, name: string, viewOn: string): void {
  const path = [`${db}.${name}`, `${db}.${name}`];
  const seen = new Set([name]);
  let next = viewOn;
  let depth = 1;
  for (;;) {
    if (seen.has(next)) {
      path.push(`${db}.${next}`);
      throw new CommandError('GraphContainsCycle', `View cycle detected: ${path.join(' => ')}`);
    }
    const def = lookup.view(db, next);
    if (!def) return;
    path.push(`${db}.${next}`);
    seen.add(next);
    if (++depth > MAX_VIEW_DEPTH) throw viewDepthError();
    next = def.viewOn;
  }
}

function viewDepthError(): CommandError {
  return new CommandError('ViewDepthLimitExceeded', `View depth too deep or view cycle detected. Maximum depth is ${MAX_VIEW_DEPTH}`);
}

/** Resolves `db.name` when it is a view (undefined otherwise): its source and full pipeline. */
export function resolveView(lookup: ViewLookup, db: string, name: string): ResolvedView | undefined {
  const view = lookup.view(db, name);
  if (!view) return undefined;
  const pipelines: (readonly Document[])[] = [view.pipeline];
  let source = view.viewOn;
  for (let depth = 1; ; depth++) {
    const inner = lookup.view(db, source);
    if (!inner) break;
    if (depth >= MAX_VIEW_DEPTH) throw viewDepthError();
    pipelines.unshift(inner.pipeline);
    source = inner.viewOn;
  }
  return { view, source, pipeline: pipelines.flat() };
}
