/**
 * `$geoNear` (mongo/src/mongo/db/pipeline/document_source_geo_near.cpp): the documents of the
 * collection nearest a point first, each with its distance (`distanceField`, times
 * `distanceMultiplier`) and the location measured (`includeLocs`). It reads the collection
 * itself, so it stands first. The field is `key`, else the one 2d index's, else the one 2dsphere
 * index's (27 IndexNotFound when none or several); the near query is `{key: {$near|$nearSphere:
 * near, $minDistance, $maxDistance}}` as find parses it, and an index of the right kind must
 * exist on that field (291). Distances are metres for a GeoJSON point, radians for a legacy pair
 * with `spherical`, flat units otherwise.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';

import { twoDRange } from '../../geo/index_keys.js';
import { streamNumber } from '../../geo/geojson.js';
import { compileFilter, predicateNear } from '../../query/compile_filter.js';
import { byDistance, nearIndexKindFits, noNearIndex, type NearQuery } from '../../query/operators/geo.js';
import { parseFieldPath } from '../../expression/field_path.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isNumber, toDouble, doubleOf } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { setMetadata } from '../../values/metadata.js';
import type { StageConstraints, StageDefinition, PipelineParseContext } from '../stage.js';

/** Where `$geoNear` may stand: first, reading the collection itself. */
const GEO_NEAR_CONSTRAINTS: StageConstraints = Object.freeze({
  stream: 'blocking',
  position: 'first',
  input: 'none',
  target: 'collection',
  allowedIn: Object.freeze({ view: true, lookup: true, unionWith: true, transaction: true }),
  notFirst: () => new CommandError(40603, '$geoNear was not the first stage in the pipeline.'),
});

/** The options `$geoNear` knows. */
const OPTIONS: ReadonlySet<string> = new Set([
  'near',
  'distanceField',
  'maxDistance',
  'minDistance',
  'distanceMultiplier',
  'query',
  'spherical',
  'includeLocs',
  'key',
]);

/** Most components of an output path (`distanceField`, `includeLocs`). */
const MAX_OUTPUT_DEPTH = 199;
/** Most components of a path at all (FieldPath). */
const MAX_PATH_PARTS = 200;
/** Most components of `key`. */
const MAX_KEY_DEPTH = 180;

/** BSON truthiness (`trueValue`). */
function trueValue(v: unknown): boolean {
  if (v === false || v === null || v === undefined) return false;
  if (isNumber(v)) return toDouble(v) !== 0;
  return true;
}

/** True when an expression reads the document (a field path, `$$ROOT`, `$$CURRENT`). */
function readsDocument(v: unknown): boolean {
  if (typeof v === 'string') return v.startsWith('$') && (!v.startsWith('$$') || v.startsWith('$$ROOT') || v.startsWith('$$CURRENT'));
  if (Array.isArray(v)) return v.some(readsDocument);
  if (isDocument(v)) {
    if ('$literal' in v) return false;
    return Object.values(v).some(readsDocument);
  }
  return false;
}

function hasOperator(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasOperator);
  if (isDocument(v)) return Object.keys(v).some((k) => k.startsWith('$')) || Object.values(v).some(hasOperator);
  return typeof v === 'string' && v.startsWith('$');
}

/** A constant expression's value (`code` when it reads the document). */
function constantValue(v: unknown, ctx: PipelineParseContext, code: number, message: string): unknown {
  if (readsDocument(v)) throw new CommandError(code, message);
  if (!hasOperator(v)) return v;
  return ctx.expressions.compile(v)({});
}

/** A checked output path. */
function outputPath(path: string): string {
  const parts = parseFieldPath(path);
  if (parts.length > MAX_PATH_PARTS) throw new CommandError('Overflow', 'FieldPath is too long');
  if (parts.length > MAX_OUTPUT_DEPTH) throw new CommandError(5984700, `Cannot create a field path deeper than ${MAX_OUTPUT_DEPTH} components: ${path}`);
  return path;
}

/** A parsed non-negative distance (`maxDistance`, `minDistance`). */
function distanceOption(name: string, v: unknown, ctx: PipelineParseContext, code: number): number {
  const value = constantValue(v, ctx, code, `$geoNear requires ${name} to evaluate to a constant number`);
  if (!isNumber(value)) throw new CommandError('TypeMismatch', `${name} must be a number`);
  const d = toDouble(value);
  if (!(d >= 0)) throw new CommandError('BadValue', `${name} must be nonnegative`);
  return d;
}

/** `doc` with `value` at the dotted `path`, the documents along it copied (the input is never changed). */
function withField(doc: Document, path: string, value: unknown): Document {
  const parts = path.split('.');
  const out: Document = { ...doc };
  let cur = out;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]!];
    const copy: Document = isDocument(next) ? { ...next } : {};
    cur[parts[i]!] = copy;
    cur = copy;
  }
  cur[parts[parts.length - 1]!] = value;
  return out;
}

/** The geo field of an index spec and its kind, or null. */
function geoFieldOf(spec: Document): { field: string; kind: '2d' | '2dsphere' } | null {
  const key = spec.key as Document;
  for (const [field, kind] of Object.entries(key)) if (kind === '2d' || kind === '2dsphere') return { field, kind };
  return null;
}

/** `{$geoNear: {...}}`. */
export const geoNear: StageDefinition = {
  name: '$geoNear',
  constraints: GEO_NEAR_CONSTRAINTS,
  parse(spec, ctx) {
    if (!isDocument(spec) && !Array.isArray(spec)) throw new CommandError(10065, '$geoNear requires an object as argument');
    const options: Document = Array.isArray(spec) ? {} : spec;
    if ('collation' in options) {
      throw new CommandError(40227, "$geoNear does not accept the 'collation' parameter. Instead, specify a collation for the entire aggregation command.");
    }
    if ('limit' in options) throw new CommandError(50858, "$geoNear no longer supports the 'limit' parameter. Use a $limit stage instead.");
    if ('num' in options) throw new CommandError(50856, "$geoNear no longer supports the 'num' parameter. Use a $limit stage instead.");
    if (!('near' in options)) throw new CommandError(5860400, "$geoNear requires a 'near' argument");
    for (const name of Object.keys(options)) {
      if (!OPTIONS.has(name)) throw new CommandError('BadValue', `Unknown argument to $geoNear: ${name}`);
    }
    const rawNear = options.near;
    if (readsDocument(rawNear)) throw new CommandError(5860402, '$geoNear requires near argument to be a constant expression');
    if (!isDocument(rawNear) && !Array.isArray(rawNear)) {
      throw new CommandError(5860401, '$geoNear requires near argument to be a GeoJSON object or a legacy point(array)');
    }
    const near = constantValue(rawNear, ctx, 5860402, '$geoNear requires near argument to be a constant expression');
    let distanceField: string | null = null;
    if ('distanceField' in options) {
      const v = options.distanceField;
      if (typeof v !== 'string') throw new CommandError(16606, "$geoNear requires that the 'distanceField' option is a String");
      distanceField = outputPath(v);
    }
    const maxDistance = 'maxDistance' in options ? distanceOption('maxDistance', options.maxDistance, ctx, 7555702) : undefined;
    const minDistance = 'minDistance' in options ? distanceOption('minDistance', options.minDistance, ctx, 7555701) : undefined;
    let multiplier = 1;
    if ('distanceMultiplier' in options) {
      const v = options.distanceMultiplier;
      if (!isNumber(v)) throw new CommandError('TypeMismatch', 'distanceMultiplier must be a number');
      multiplier = toDouble(v);
      if (!(multiplier >= 0)) throw new CommandError('BadValue', 'distanceMultiplier must be nonnegative');
    }
    let query: Document = {};
    if ('query' in options) {
      const v = options.query;
      if (!isDocument(v)) throw new CommandError('TypeMismatch', 'query must be an object');
      query = v;
    }
    const spherical = trueValue(options.spherical);
    let includeLocs: string | null = null;
    if ('includeLocs' in options) {
      const v = options.includeLocs;
      if (typeof v !== 'string') throw new CommandError(16607, "$geoNear requires that 'includeLocs' option is a String");
      includeLocs = outputPath(v);
    }
    let key: string | null = null;
    if ('key' in options) {
      const v = options.key;
      if (typeof v !== 'string') throw new CommandError('TypeMismatch', `$geoNear parameter 'key' must be of type string but found type: ${bsonTypeOf(v)}`);
      if (v === '') throw new CommandError('BadValue', "$geoNear parameter 'key' cannot be the empty string");
      const parts = parseFieldPath(v);
      if (parts.length > MAX_PATH_PARTS) throw new CommandError('Overflow', 'FieldPath is too long');
      if (parts.length > MAX_KEY_DEPTH) throw new CommandError(5729100, `$geoNear parameter 'key' must have at most ${MAX_KEY_DEPTH} components`);
      key = v;
    }
    if ('$text' in query) throw new CommandError('BadValue', 'text and geoNear not allowed in same query');
    const predicate = compileFilter(query, { whereAllowed: false, nearAllowed: false, collator: ctx.expressions.runtime.collator, compileExpr: (e) => ctx.expressions.predicate(e) });
    const nearFilter = (field: string): NearQuery => {
      const op: Document = { [spherical ? '$nearSphere' : '$near']: near };
      if (minDistance !== undefined) op.$minDistance = minDistance;
      if (maxDistance !== undefined) op.$maxDistance = maxDistance;
      return predicateNear(compileFilter({ [field]: op }, { nearAllowed: true }))!;
    };
    // The near argument is checked before any collection is read, as mongod parses it.
    nearFilter(key ?? 'loc');
    const collection = ctx.collection;
    return {
      *run() {
        const reader = ctx.runtime.collections;
        const specs = collection === null ? undefined : reader.indexSpecs?.(collection);
        if (collection === null || specs === undefined) {
          throw new CommandError('NamespaceNotFound', `ns does not exist: ${ctx.runtime.db}.${collection ?? ''}`);
        }
        const ns = `${ctx.runtime.db}.${collection}`;
        const geo = specs.filter((s) => s.hidden !== true).map((s) => ({ spec: s, geo: geoFieldOf(s) })).filter((x) => x.geo !== null);
        let field = key;
        if (field === null) {
          const twoD = geo.filter((x) => x.geo!.kind === '2d');
          if (twoD.length > 1) throw new CommandError('IndexNotFound', `There is more than one 2d index on ${ns}; unsure which to use for $geoNear`);
          if (twoD.length === 1) field = twoD[0]!.geo!.field;
          else {
            const sphere = geo.filter((x) => x.geo!.kind === '2dsphere');
            if (sphere.length === 0) throw new CommandError('IndexNotFound', '$geoNear requires a 2d or 2dsphere index, but none were found');
            if (sphere.length > 1) throw new CommandError('IndexNotFound', `There is more than one 2dsphere index on ${ns}; unsure which to use for $geoNear`);
            field = sphere[0]!.geo!.field;
          }
        }
        const nearQuery = nearFilter(field);
        const index = geo.find((x) => x.geo!.field === field && nearIndexKindFits(x.geo!.kind, nearQuery));
        if (index === undefined) throw noNearIndex();
        if (index.geo!.kind === '2d' && nearQuery.units === 'flat') {
          const { min, max } = twoDRange(index.spec);
          const { x, y } = nearQuery.centroid;
          if (!(x >= min && x <= max && y >= min && y <= max)) {
            throw new CommandError(16433, `point not in interval of [ ${streamNumber(min)}, ${streamNumber(max)} )`);
          }
        }
        const matching = [...reader.documents(collection)].filter((doc) => predicate(doc));
        for (const m of byDistance(matching, (doc) => doc, nearQuery)) {
          let doc = m.item;
          if (distanceField !== null) doc = withField(doc, distanceField, doubleOf(m.distance * multiplier));
          if (includeLocs !== null) doc = withField(doc, includeLocs, m.location);
          if (doc === m.item) doc = { ...doc };
          setMetadata(doc, { geoNearDistance: doubleOf(m.distance * multiplier), geoNearPoint: m.location });
          yield doc;
        }
      },
    };
  },
};


