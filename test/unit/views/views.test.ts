/**
 * View definitions: pipeline checks, cycle and depth limits, resolution of views on views, and
 * the system.views document form.
 */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { checkViewGraph, checkViewPipeline, MAX_VIEW_DEPTH, resolveView, viewDocument, viewFromDocument, viewOptions, type ViewDefinition, type ViewLookup } from '../../../src/storage/views.js';
import { errorOf } from '../thrown.js';


function lookup(views: Record<string, [string, Document[]]>): ViewLookup {
  return {
    view: (db, name) => (views[name] ? { db, name, viewOn: views[name]![0], pipeline: views[name]![1] } : undefined),
  };
}

describe('checkViewPipeline', () => {
  test.each<[unknown[], [number, string]]>([
    [[{ $nope: 1 }], [40324, "Unrecognized pipeline stage name: '$nope'"]],
    [[{ $match: {} }, { $out: 'x' }], [167, 'Invalid pipeline for view d.v :: caused by :: The aggregation stage $out in location 1 of the pipeline cannot be used in the view definition of d.v because it writes to disk']],
    [[{ $merge: { into: 'x' } }], [167, 'Invalid pipeline for view d.v :: caused by :: The aggregation stage $merge in location 0 of the pipeline cannot be used in the view definition of d.v because it writes to disk']],
    [[{ $changeStream: {} }], [167, 'Invalid pipeline for view d.v :: caused by :: $changeStream cannot be used in a view definition']],
    [[{ $match: {} }, 'x'], [14, "BSON field 'create.pipeline.1' is the wrong type 'string', expected type 'object'"]],
    [[{ $match: { $bad: 1 } }], [2, "unknown top level operator: $bad. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."]],
    [[{ $match: {}, $sort: { a: 1 } }], [40323, 'A pipeline stage specification object must contain exactly one field.']],
  ])('%j', (pipeline, expected) => {
    expect(errorOf(() => checkViewPipeline('create', 'd', 'v', pipeline, 0))).toEqual(expected);
  });

  test('a valid pipeline is returned as is', () => {
    const pipeline = [{ $match: { a: 1 } }, { $project: { a: 1 } }];
    expect(checkViewPipeline('collMod', 'd', 'v', pipeline, 0)).toEqual(pipeline);
  });
});

describe('checkViewGraph', () => {
  test('cycles are rendered as mongod renders them', () => {
    expect(errorOf(() => checkViewGraph(lookup({}), 'd', 'a', 'a'))).toEqual([5, 'View cycle detected: d.a => d.a => d.a']);
    expect(errorOf(() => checkViewGraph(lookup({ v4: ['v1', []] }), 'd', 'v1', 'v4'))).toEqual([5, 'View cycle detected: d.v1 => d.v1 => d.v4 => d.v1']);
    expect(() => checkViewGraph(lookup({ v4: ['src', []] }), 'd', 'v1', 'v4')).not.toThrow();
  });

  test('a chain deeper than 20 views is 165', () => {
    const views: Record<string, [string, Document[]]> = {};
    for (let i = 1; i < MAX_VIEW_DEPTH; i++) views[`v${i}`] = [`v${i + 1}`, []];
    views[`v${MAX_VIEW_DEPTH}`] = ['src', []];
    expect(() => checkViewGraph(lookup(views), 'd', 'top', 'v2')).not.toThrow();
    expect(errorOf(() => checkViewGraph(lookup(views), 'd', 'top', 'v1'))).toEqual([165, 'View depth too deep or view cycle detected. Maximum depth is 20']);
  });
});

describe('resolveView', () => {
  test('a view on a view: the source collection and the pipelines, innermost first', () => {
    const views = lookup({ outer: ['inner', [{ $project: { a: 1 } }]], inner: ['src', [{ $match: { a: 1 } }]] });
    const resolved = resolveView(views, 'd', 'outer')!;
    expect([resolved.source, resolved.pipeline, resolved.view.name]).toEqual(['src', [{ $match: { a: 1 } }, { $project: { a: 1 } }], 'outer']);
    expect(resolveView(views, 'd', 'src')).toBeUndefined();
  });
});

describe('definitions as system.views documents', () => {
  test('round trip and listCollections options', () => {
    const def: ViewDefinition = { db: 'd', name: 'v.w', viewOn: 'c', pipeline: [{ $match: {} }] };
    expect(viewDocument(def)).toEqual({ _id: 'd.v.w', viewOn: 'c', pipeline: [{ $match: {} }] });
    expect(viewFromDocument('d', viewDocument(def))).toEqual(def);
    expect(viewOptions(def)).toEqual({ viewOn: 'c', pipeline: [{ $match: {} }] });
    expect(viewFromDocument('d', { _id: 'other.v', viewOn: 'c', pipeline: [] })).toBeUndefined();
    expect(viewFromDocument('d', { _id: 'd.v', viewOn: 'c' })).toBeUndefined();
  });
});
