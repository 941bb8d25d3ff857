/**
 * Geospatial operators (mongo/src/mongo/db/matcher/expression_geo.cpp): `$geoWithin`/`$within`
 * and `$geoIntersects` compile to tests of the stored geometries along a path; `$near`,
 * `$nearSphere` and `$geoNear` (with `$minDistance`/`$maxDistance`) compile to a distance test
 * and a `NearQuery`, which the read path uses to order the matches by distance and to find the
 * index mongod would require. The geometry is `src/storage/geo/`.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import {
  badGeo,
  elementsOf,
  isObjectLike,
  parseBox,
  parseCap,
  parseCircle,
  parseFlatPolygon,
  legacyPoint,
  parseFlatPoint,
  parseGeoJson,
  parseQueryPoint,
  storedGeometryOrNull,
  type GeoPoint,
  type Geometry,
} from '../../geo/geojson.js';
import { flatDistance, geometriesIntersect, regionContains, sphericalDistance } from '../../geo/predicates.js';
import { EARTH_RADIUS_METERS } from '../../geo/sphere.js';
import { formatValue } from '../../values/format.js';
import { isNumber, toDouble } from '../../values/numeric.js';
import { MISSING, parsePath, walkPath } from '../../values/paths.js';
import { leaf, type Clause } from '../types.js';

/** The geospatial field operators. */
export const GEO_OPERATORS: ReadonlySet<string> = new Set([
  '$geoWithin',
  '$within',
  '$geoIntersects',
  '$near',
  '$nearSphere',
  '$geoNear',
]);

/** The operators that ask for documents ordered by distance. */
export const NEAR_OPERATORS: ReadonlySet<string> = new Set(['$near', '$nearSphere', '$geoNear']);

/** mongod's error for a near operator where no sort by distance can be made (5626500). */
export function nearNotAllowed(): CommandError {
  return new CommandError(
    5626500,
    '$geoNear, $near, and $nearSphere are not allowed in this context, as these operators require sorting geospatial data. If you do not need sort, consider using $geoWithin instead. Check out https://dochub.mongodb.org/core/near-sort-operation and https://dochub.mongodb.org/core/nearSphere-sort-operationfor more details.',
  );
}

/** The shape specifiers of `$geoWithin`. */
const SPECIFIERS: ReadonlySet<string> = new Set(['$box', '$center', '$polygon', '$centerSphere', '$geometry']);

/**
 * The query geometry of `{$geoWithin|$within|$geoIntersects: value}` (GeoExpression::parseFrom):
 * one specifier (`$uniqueDocs` ignored); `$geoWithin` takes a region, `$geoIntersects` a GeoJSON
 * geometry. Throws 2 BadValue with mongod's message.
 */
export function parseGeoQuery(op: string, value: unknown): Geometry {
  if (!isObjectLike(value) || Array.isArray(value)) throw badGeo('geometry must be an object');
  let geometry: Geometry | null = null;
  for (const key of Object.keys(value)) {
    if (geometry !== null && op === '$geoWithin') {
      throw badGeo(`$geoWithin doesn't accept multiple shapes ${op}: ${formatValue(value)}`);
    }
    if (key === '$uniqueDocs') continue;
    geometry = parseSpecifier(key, (value as Document)[key]);
  }
  if (geometry === null) throw badGeo("geo query doesn't have any geometry");
  const within = op !== '$geoIntersects';
  if (within && !supportsContains(geometry)) {
    throw badGeo(`$within not supported with provided geometry: ${formatValue({ [op]: value })}`);
  }
  if (!within && !isSpherical(geometry)) {
    throw badGeo(`$geoIntersect not supported with provided geometry: ${formatValue({ [op]: value })}`);
  }
  if (!within && geometry.kind === 'point' && geometry.vec === null) {
    throw badGeo(`$geoIntersect not supported with provided geometry: ${formatValue({ [op]: value })}`);
  }
  return geometry;
}

/** GeometryContainer::parseFromQuery: one `$box`, `$center`, `$polygon`, `$centerSphere` or `$geometry`. */
function parseSpecifier(key: string, v: unknown): Geometry {
  if (!isObjectLike(v)) throw badGeo('geometry must be an object');
  if (!SPECIFIERS.has(key)) throw badGeo(`unknown geo specifier: ${key}: ${formatValue(v)}`);
  switch (key) {
    case '$box':
      return parseBox(v);
    case '$center':
      return parseCircle(v);
    case '$polygon':
      return parseFlatPolygon(v);
    case '$centerSphere':
      return parseCap(v);
    default: {
      // A legacy pair stands for a point ({$geometry: [x, y]} or {x, y}).
      if (Array.isArray(v) || isNumber(elementsOf(v)[0])) return legacyPoint(parseFlatPoint(v, false));
      return parseGeoJson(v);
    }
  }
}

function supportsContains(g: Geometry): boolean {
  switch (g.kind) {
    case 'polygon':
    case 'box':
    case 'cap':
    case 'circle':
    case 'flatPolygon':
    case 'multipolygon':
      return true;
    case 'collection':
      return g.parts.some((p) => p.kind === 'polygon' || p.kind === 'multipolygon');
    default:
      return false;
  }
}

function isSpherical(g: Geometry): boolean {
  return g.kind !== 'box' && g.kind !== 'circle' && g.kind !== 'flatPolygon';
}

/**
 * `{path: {$geoWithin|$within|$geoIntersects: value}}` as a clause over the path's values; `sub` is
 * the whole operator document, in which a geo operator must stand alone (GeoExpression::parseQuery).
 */
export function parseGeo(op: string, value: unknown, sub: Document): Clause {
  const keys = Object.keys(sub);
  if (keys.length > 1) {
    if (keys[0] !== op) throw badGeo(`invalid geo query predicate: ${formatValue(sub)}`);
    throw badGeo(`can't parse extra field: ${formatElement(keys[1]!, sub[keys[1]!])}`);
  }
  const query = parseGeoQuery(op, value);
  const within = op !== '$geoIntersects';
  return leaf((v) => {
    if (v === MISSING || !isObjectLike(v)) return false;
    const g = storedGeometryOrNull(v);
    if (g === null) return false;
    if (g.kind === 'polygon' && g.big) return false;
    return within ? regionContains(query, g) : geometriesIntersect(query, g);
  });
}

/** How a near query measures (GeoNearExpression): flat units, radians, or metres. */
export type NearUnits = 'flat' | 'radians' | 'meters';

/** A parsed `$near`/`$nearSphere`/`$geoNear` on a path. */
export interface NearQuery {
  readonly path: string;
  readonly centroid: GeoPoint;
  /** `$nearSphere` (or `$geoNear` with `spherical`). */
  readonly isNearSphere: boolean;
  readonly units: NearUnits;
  /** The centroid is GeoJSON: only a 2dsphere index answers it. */
  readonly isWrapping: boolean;
  readonly minDistance: number;
  readonly maxDistance: number;
  /** The distance of the nearest geometry of `doc` in range and that geometry as stored, or null. */
  measure(doc: Document): NearMatch | null;
}

/** A document's place in a near query's order. */
export interface NearMatch {
  readonly distance: number;
  readonly location: unknown;
}

/** The distance from a near query's centroid to a stored value, in the query's units; null: no geometry there. */
function distanceTo(centroid: GeoPoint, units: NearUnits, v: unknown): number | null {
  const g = storedGeometryOrNull(v);
  if (g === null) return null;
  if (units === 'flat') return flatDistance(centroid, g);
  if (g.kind === 'polygon' && g.big) return null;
  const d = sphericalDistance(centroid.vec!, g);
  if (d === null) return null;
  return units === 'meters' ? d * EARTH_RADIUS_METERS : d;
}

/**
 * Parses the operator document of a near query (`sub`: `{$near: ..., $maxDistance: ...}`) on
 * `path` (GeoNearExpression::parseFrom): the legacy form first, then `{$near: {$geometry, ...}}`.
 */
export function parseNear(path: string, sub: Document): NearQuery {
  const legacy = parseLegacyNear(sub);
  let centroid: GeoPoint;
  let isNearSphere: boolean;
  let minDistance: number;
  let maxDistance: number;
  if (legacy !== null) {
    ({ centroid, isNearSphere, minDistance, maxDistance } = legacy);
  } else {
    ({ centroid, isNearSphere, minDistance, maxDistance } = parseNewNear(sub));
  }
  let units: NearUnits;
  const isWrapping = centroid.crs === 'sphere';
  if (isNearSphere) {
    if (centroid.vec === null) throw badGeo('Legacy point is out of bounds for spherical query');
    units = centroid.crs === 'sphere' ? 'meters' : 'radians';
  } else {
    units = centroid.crs === 'sphere' ? 'meters' : 'flat';
  }
  const parsed = parsePath(path);
  const measure = (doc: Document): NearMatch | null => {
    let best: NearMatch | null = null;
    walkPath(doc, parsed, true, (v) => {
      if (v === MISSING || !isObjectLike(v)) return false;
      const d = distanceTo(centroid, units, v);
      if (d !== null && d >= minDistance && d <= maxDistance && (best === null || d < best.distance)) best = { distance: d, location: v };
      return false;
    });
    return best;
  };
  return { path, centroid, isNearSphere, units, isWrapping, minDistance, maxDistance, measure };
}

interface NearParts {
  centroid: GeoPoint;
  isNearSphere: boolean;
  minDistance: number;
  maxDistance: number;
}

/** parseLegacyQuery: `{$near: point | [x, y, max], $minDistance, $maxDistance}`; null when it holds no legacy geometry. */
function parseLegacyNear(sub: Document): NearParts | null {
  let centroid: GeoPoint | null = null;
  let isNearSphere = false;
  let minDistance = 0;
  let maxDistance = Number.MAX_VALUE;
  for (const key of Object.keys(sub)) {
    const e = sub[key];
    if (NEAR_OPERATORS.has(key)) {
      if (!isObjectLike(e)) return null;
      let point: GeoPoint | null = null;
      try {
        point = parseQueryPoint(e);
      } catch (err) {
        if (!(err instanceof CommandError)) throw err;
        const withMax = pointWithMaxDistance(e);
        if (withMax !== null) {
          point = withMax.point;
          maxDistance = withMax.max;
        }
      }
      if (point !== null) {
        if (!(maxDistance >= 0)) throw new CommandError(18522, 'max distance must be non-negative');
        centroid = point;
        isNearSphere = key === '$nearSphere';
      }
    } else if (key === '$minDistance') {
      if (!isNumber(e)) throw new CommandError(16893, '$minDistance must be a number');
      minDistance = toDouble(e);
      if (!(minDistance >= 0)) throw new CommandError(16894, '$minDistance must be non-negative');
    } else if (key === '$maxDistance') {
      if (!isNumber(e)) throw new CommandError(16895, '$maxDistance must be a number');
      maxDistance = toDouble(e);
      if (!(maxDistance >= 0)) throw new CommandError(16896, '$maxDistance must be non-negative');
    } else if (key !== '$uniqueDocs') {
      throw new CommandError(34413, `invalid argument in geo near query: ${key}`);
    }
  }
  return centroid === null ? null : { centroid, isNearSphere, minDistance, maxDistance };
}

/** parsePointWithMaxDistance: exactly three numbers `[x, y, maxDistance]`. */
function pointWithMaxDistance(v: Document | unknown[]): { point: GeoPoint; max: number } | null {
  const els = elementsOf(v);
  if (els.length !== 3 || !els.every(isNumber)) return null;
  const x = toDouble(els[0]);
  const y = toDouble(els[1]);
  return { point: { kind: 'point', x, y, crs: 'flat', vec: parseQueryPointVec(x, y) }, max: toDouble(els[2]) };
}

function parseQueryPointVec(x: number, y: number): GeoPoint['vec'] {
  try {
    return parseQueryPoint([x, y]).vec;
  } catch {
    return null;
  }
}

/** parseNewQuery: `{$near: {$geometry: <GeoJSON point>, $minDistance, $maxDistance}}`. */
function parseNewNear(sub: Document): NearParts {
  const keys = Object.keys(sub);
  if (keys.length === 0) throw badGeo('empty geo near query object');
  if (keys.length > 1) {
    throw badGeo(`geo near accepts just one argument when querying for a GeoJSON point. Extra field found: ${formatElement(keys[1]!, sub[keys[1]!])}`);
  }
  const op = keys[0]!;
  const arg = sub[op];
  if (!isObjectLike(arg)) throw badGeo('geo near query argument is not an object');
  if (!NEAR_OPERATORS.has(op)) throw badGeo(`invalid geo near query operator: ${op}`);
  const valid = (x: number): boolean => x >= 0 && Number.isFinite(x);
  let centroid: GeoPoint | null = null;
  let minDistance = 0;
  let maxDistance = Number.MAX_VALUE;
  for (const key of Object.keys(arg)) {
    const e = (arg as Document)[key];
    if (key === '$geometry') {
      if (!isObjectLike(e)) continue;
      let point: GeoPoint;
      try {
        point = parseQueryPoint(e);
      } catch (err) {
        if (!(err instanceof CommandError)) throw err;
        throw badGeo(`invalid point in geo near query $geometry argument: ${formatValue(e)}  ${err.message}`);
      }
      if (point.crs !== 'sphere') throw badGeo(`$near requires geojson point, given ${formatValue(e)}`);
      centroid = point;
    } else if (key === '$minDistance') {
      if (!isNumber(e)) throw badGeo('$minDistance must be a number');
      minDistance = toDouble(e);
      if (!valid(minDistance)) throw badGeo('$minDistance must be non-negative');
    } else if (key === '$maxDistance') {
      if (!isNumber(e)) throw badGeo('$maxDistance must be a number');
      maxDistance = toDouble(e);
      if (!valid(maxDistance)) throw badGeo('$maxDistance must be non-negative');
    } else {
      throw badGeo(`invalid argument in geo near query: ${key}`);
    }
  }
  if (centroid === null) throw badGeo('$geometry is required for geo near query');
  return { centroid, isNearSphere: op === '$nearSphere', minDistance, maxDistance };
}

function formatElement(name: string, value: unknown): string {
  return `${name}: ${formatValue(value)}`;
}

/** A near query as a clause: true for a value whose geometry lies within the query's distances. */
export function nearClause(near: NearQuery): Clause {
  return leaf((v) => {
    if (v === MISSING || !isObjectLike(v)) return false;
    const d = distanceTo(near.centroid, near.units, v);
    return d !== null && d >= near.minDistance && d <= near.maxDistance;
  });
}

/** True when an index of kind `kind` ('2d' or '2dsphere') can answer `near` (QueryPlannerIXSelect). */
export function nearIndexKindFits(kind: string, near: NearQuery): boolean {
  if (kind === '2dsphere') return near.units !== 'flat';
  if (kind === '2d') return near.units === 'flat' || !near.isWrapping;
  return false;
}

/** mongod's error for a near query no index can answer (291). */
export function noNearIndex(): CommandError {
  return new CommandError('NoQueryExecutionPlans', 'error processing query: planner returned error :: caused by :: unable to find index for $geoNear query');
}

/** An item with its distance and the location measured. */
export interface Measured<T> {
  readonly item: T;
  readonly distance: number;
  readonly location: unknown;
}

/** The items whose document has a geometry within the query's distances, nearest first (ties in input order). */
export function byDistance<T>(items: Iterable<T>, docOf: (item: T) => Document, near: NearQuery): Measured<T>[] {
  const out: Measured<T>[] = [];
  for (const item of items) {
    const m = near.measure(docOf(item));
    if (m !== null) out.push({ item, distance: m.distance, location: m.location });
  }
  out.sort((a, b) => a.distance - b.distance);
  return out;
}
