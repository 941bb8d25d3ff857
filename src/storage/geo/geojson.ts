/**
 * Geometries as mongod parses them (mongo/src/mongo/db/geo/geoparser.cpp, geometry_container.cpp):
 * legacy coordinate pairs (`[x, y]` or `{x, y}`), the legacy query shapes (`$box`, `$polygon`,
 * `$center`, `$centerSphere`) and GeoJSON (Point, LineString, Polygon with holes, MultiPoint,
 * MultiLineString, MultiPolygon, GeometryCollection, and the strict-winding "big" polygon), with
 * mongod's checks and messages (every failure is 2 BadValue). Parsing a stored value never
 * throws to the caller of `parseStoredGeometry`: it answers why the value is no geometry.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../values/format.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { isDocument } from '../values/paths.js';
import { boxOf, type Box, type Point } from './planar.js';
import { edgesCross, isValidLngLat, leftOfLoop, distanceToLoop, toVec, turningAngle, TOUCH_EPSILON, type Vec3 } from './sphere.js';

/** A point: legacy (`flat`) or GeoJSON (`sphere`); `vec` is its place on the sphere when it has one. */
export interface GeoPoint {
  readonly kind: 'point';
  readonly x: number;
  readonly y: number;
  readonly crs: 'flat' | 'sphere';
  readonly vec: Vec3 | null;
}

/** A GeoJSON LineString (its vertices, consecutive duplicates removed). */
export interface GeoLine {
  readonly kind: 'line';
  readonly vertices: readonly Vec3[];
}

/**
 * A GeoJSON Polygon: loops without their closing vertex, each turned so that its inside is on its
 * left; the first is the shell, the others holes. `big`: a strict-winding polygon (one loop whose
 * inside is on its left as written, possibly more than a hemisphere).
 */
export interface GeoPolygon {
  readonly kind: 'polygon';
  readonly loops: readonly (readonly Vec3[])[];
  readonly big: boolean;
  /** The shell's inside is more than a hemisphere (only a big polygon's can be). */
  readonly wide: boolean;
}

/** A GeoJSON Multi* or GeometryCollection. */
export interface GeoCollection {
  readonly kind: 'multipoint' | 'multiline' | 'multipolygon' | 'collection';
  readonly parts: readonly Geometry[];
}

/** `$box`. */
export interface GeoBox {
  readonly kind: 'box';
  readonly box: Box;
}

/** `$polygon` (flat). */
export interface GeoFlatPolygon {
  readonly kind: 'flatPolygon';
  readonly points: readonly Point[];
}

/** `$center` (flat). */
export interface GeoCircle {
  readonly kind: 'circle';
  readonly center: Point;
  readonly radius: number;
}

/** `$centerSphere`: a spherical cap, its radius in radians. */
export interface GeoCap {
  readonly kind: 'cap';
  readonly center: Vec3;
  readonly radius: number;
}

/** Any geometry of a query or a document. */
export type Geometry = GeoPoint | GeoLine | GeoPolygon | GeoCollection | GeoBox | GeoFlatPolygon | GeoCircle | GeoCap;

/** The GeoJSON type names. */
const GEOJSON_TYPES: ReadonlySet<string> = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection']);

const CRS_CRS84 = 'urn:ogc:def:crs:OGC:1.3:CRS84';
const CRS_EPSG_4326 = 'EPSG:4326';
const CRS_STRICT_WINDING = 'urn:x-mongodb:crs:strictwinding:EPSG:4326';

/** A 2 BadValue error. */
export function badGeo(message: string): CommandError {
  return new CommandError('BadValue', message);
}

/** True for what mongod's `isABSONObj` accepts: a document or an array. */
export function isObjectLike(v: unknown): v is Document | unknown[] {
  return Array.isArray(v) || isDocument(v);
}

/** The values of a document or an array, in order (a BSONObjIterator). */
export function elementsOf(v: Document | unknown[]): unknown[] {
  return Array.isArray(v) ? v : Object.values(v);
}

/** A number as C++ streams print a double (`200`, `200.5`, `nan`, `inf`). */
export function streamNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  if (Object.is(n, -0)) return '-0';
  const s = n.toPrecision(6);
  if (s.includes('e')) {
    const [m, e] = s.split('e');
    const mant = m!.includes('.') ? m!.replace(/0+$/, '').replace(/\.$/, '') : m!;
    const exp = Number(e);
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** mongod's `parseFlatPoint`: the first two numbers of an array or document. */
export function parseFlatPoint(v: unknown, allowExtra: boolean): Point {
  if (!isObjectLike(v)) throw badGeo('Point must be an array or object');
  const els = elementsOf(v);
  if (els.length < 1 || !isNumber(els[0])) throw badGeo('Point must only contain numeric elements');
  if (els.length < 2 || !isNumber(els[1])) throw badGeo('Point must only contain numeric elements');
  if (!allowExtra && els.length > 2) throw badGeo('Point must only contain two numeric elements');
  const x = toDouble(els[0]);
  const y = toDouble(els[1]);
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw badGeo('Point coordinates must be finite numbers');
  return { x, y };
}

/** A legacy coordinate pair as a point (projected onto the sphere when it is a valid lng/lat). */
export function legacyPoint(p: Point): GeoPoint {
  return { kind: 'point', x: p.x, y: p.y, crs: 'flat', vec: isValidLngLat(p.x, p.y) ? toVec(p.x, p.y) : null };
}

function outOfBounds(lng: number, lat: number): CommandError {
  return badGeo(`longitude/latitude is out of bounds, lng: ${streamNumber(lng)} lat: ${streamNumber(lat)}`);
}

/** The CRS a GeoJSON object names (parseGeoJSONCRS). */
function parseCrs(obj: Document, allowStrict: boolean): 'sphere' | 'strict' {
  if (!('crs' in obj)) return 'sphere';
  const crs = obj.crs;
  if (!isObjectLike(crs)) throw badGeo('GeoJSON CRS must be an object');
  const crsObj = crs as Document;
  if (crsObj.type !== 'name') throw badGeo('GeoJSON CRS must have field "type": "name"');
  const props = crsObj.properties;
  if (!isObjectLike(props)) throw badGeo('CRS must have field "properties" which is an object');
  const name = (props as Document).name;
  if (typeof name !== 'string') throw badGeo('In CRS, "properties.name" must be a string');
  if (name === CRS_CRS84 || name === CRS_EPSG_4326) return 'sphere';
  if (name === CRS_STRICT_WINDING) {
    if (!allowStrict) throw badGeo('Strict winding order is only supported by polygon');
    return 'strict';
  }
  throw badGeo(`Unknown CRS name: ${name}`);
}

/** A GeoJSON position: an array of at least two numbers in lng/lat bounds. */
function parseCoordinate(v: unknown): Vec3 {
  if (!Array.isArray(v)) throw badGeo('GeoJSON coordinates must be an array');
  const p = parseFlatPoint(v, true);
  if (!isValidLngLat(p.x, p.y)) throw outOfBounds(p.x, p.y);
  return toVec(p.x, p.y);
}

function parseCoordinates(v: unknown): Vec3[] {
  if (!Array.isArray(v)) throw badGeo('GeoJSON coordinates must be an array of coordinates');
  return v.map(parseCoordinate);
}

function sameVec(a: Vec3, b: Vec3): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

function withoutConsecutiveDuplicates(points: Vec3[]): Vec3[] {
  const out: Vec3[] = [];
  for (const p of points) if (out.length === 0 || !sameVec(out[out.length - 1]!, p)) out.push(p);
  return out;
}

/** The GeoJSON Point `obj` (parseGeoJSONPoint). */
function parsePointObject(obj: Document): GeoPoint {
  parseCrs(obj, false);
  const p = parseFlatPoint(obj.coordinates, true);
  if (!isValidLngLat(p.x, p.y)) throw outOfBounds(p.x, p.y);
  return { kind: 'point', x: p.x, y: p.y, crs: 'sphere', vec: toVec(p.x, p.y) };
}

function parseLineCoordinates(coords: unknown, obj: Document, validate: boolean): GeoLine {
  const vertices = withoutConsecutiveDuplicates(parseCoordinates(coords));
  if (validate && vertices.length < 2) throw badGeo(`GeoJSON LineString must have at least 2 vertices: ${formatValue(coords)}`);
  if (validate) {
    for (let i = 0; i + 1 < vertices.length; i++) {
      const a = vertices[i]!;
      const b = vertices[i + 1]!;
      if (a[0] === -b[0] && a[1] === -b[1] && a[2] === -b[2]) {
        throw badGeo(`GeoJSON LineString is not valid: Vertices ${i} and ${i + 1} are antipodal ${formatValue(obj)}`);
      }
    }
  }
  return { kind: 'line', vertices };
}

/** Checks that no two non-adjacent edges of a loop cross and no vertex repeats (S2Loop::IsValid). */
function loopProblem(loop: readonly Vec3[]): string | null {
  const n = loop.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (sameVec(loop[i]!, loop[j]!)) return `Duplicate vertices: ${i} and ${j}`;
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (edgesCross(loop[i]!, loop[(i + 1) % n]!, loop[j]!, loop[(j + 1) % n]!)) return `Edges ${i} and ${j} cross`;
    }
  }
  return null;
}

/** A ring's vertices: closed as written, then without its duplicates and its closing vertex. */
function parseRing(ring: unknown): Vec3[] {
  const points = parseCoordinates(ring);
  if (points.length === 0) throw badGeo(`Loop has no vertices: ${formatValue(ring)}`);
  if (!sameVec(points[0]!, points[points.length - 1]!)) {
    throw badGeo(`Loop is not closed, first vertex does not equal last vertex: ${formatValue(ring)}`);
  }
  const unique = withoutConsecutiveDuplicates(points);
  unique.pop();
  if (unique.length < 3) throw badGeo(`Loop must have at least 3 different vertices: ${formatValue(ring)}`);
  return unique;
}

/** `loop` turned, if need be, so that its smaller side is on its left (S2Loop::Normalize). */
function normalizeLoop(loop: Vec3[]): Vec3[] {
  return turningAngle(loop) < 0 ? loop.slice().reverse() : loop;
}

/** True when every point of `inner` is strictly inside `outer` (a hole touching its shell is refused) and no edges cross. */
function loopContainsLoop(outer: readonly Vec3[], inner: readonly Vec3[]): boolean {
  for (const v of inner) if (distanceToLoop(v, outer) < TOUCH_EPSILON || !leftOfLoop(v, outer, false)) return false;
  return !loopsCross(outer, inner);
}

function loopsCross(a: readonly Vec3[], b: readonly Vec3[]): boolean {
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      if (edgesCross(a[i]!, a[(i + 1) % a.length]!, b[j]!, b[(j + 1) % b.length]!)) return true;
    }
  }
  return false;
}

function parsePolygonCoordinates(coords: unknown, validate: boolean): GeoPolygon {
  if (!Array.isArray(coords)) throw badGeo('Polygon coordinates must be an array');
  const loops: Vec3[][] = [];
  for (const ring of coords) {
    const raw = parseRing(ring);
    const problem = validate ? loopProblem(raw) : null;
    if (problem !== null) throw badGeo(`Loop is not valid: ${formatValue(ring)} ${problem}`);
    const loop = normalizeLoop(raw);
    if (validate && loops.length > 0 && !loopContainsLoop(loops[0]!, loop)) {
      throw badGeo(
        `Secondary loops not contained by first exterior loop - secondary loops must be holes: ${formatValue(ring)} first loop: ${formatValue(coords[0])}`,
      );
    }
    loops.push(loop);
  }
  if (loops.length === 0) throw badGeo('Polygon has no loops.');
  if (validate) {
    for (let i = 1; i < loops.length; i++) {
      for (let j = i + 1; j < loops.length; j++) {
        if (loopsCross(loops[i]!, loops[j]!)) throw badGeo(`Polygon isn't valid: Loop ${i} crosses loop ${j} ${formatValue(coords)}`);
      }
    }
  }
  return { kind: 'polygon', loops, big: false, wide: false };
}

function parseBigPolygonCoordinates(coords: unknown): GeoPolygon {
  if (!Array.isArray(coords)) throw badGeo('Coordinates of polygon must be an array');
  if (coords.length !== 1) throw badGeo(`Only one simple loop is allowed in a big polygon: ${formatValue(coords)}`);
  const loop = parseRing(coords[0]);
  const problem = loopProblem(loop);
  if (problem !== null) throw badGeo(`Loop is not valid: ${formatValue(coords[0])} ${problem}`);
  return { kind: 'polygon', loops: [loop], big: true, wide: turningAngle(loop) < 0 };
}

/** The GeoJSON type `obj` names, or null (parseGeoJSONType). */
export function geoJsonType(obj: Document): string | null {
  const type = obj.type;
  return typeof type === 'string' && GEOJSON_TYPES.has(type) ? type : null;
}

/**
 * A GeoJSON object (parseFromGeoJSON); `validate` false skips the loop and line checks (stored
 * documents of an index built without validation). Throws BadValue.
 */
export function parseGeoJson(obj: Document, validate = true, nested = false): Geometry {
  const type = geoJsonType(obj);
  if (type === null) throw badGeo(`unknown GeoJSON type: ${formatValue(obj)}`);
  switch (type) {
    case 'Point':
      return parsePointObject(obj);
    case 'LineString':
      parseCrs(obj, false);
      return parseLineCoordinates(obj.coordinates, obj, validate);
    case 'Polygon':
      return parseCrs(obj, true) === 'strict' ? parseBigPolygonCoordinates(obj.coordinates) : parsePolygonCoordinates(obj.coordinates, validate);
    case 'MultiPoint': {
      parseCrs(obj, false);
      const coords = obj.coordinates;
      if (!Array.isArray(coords)) throw badGeo('MultiPoint coordinates must be an array');
      if (coords.length === 0) throw badGeo('MultiPoint coordinates must have at least 1 element');
      const parts = coords.map((c): GeoPoint => {
        const v = parseCoordinate(c);
        const p = parseFlatPoint(c, true);
        return { kind: 'point', x: p.x, y: p.y, crs: 'sphere', vec: v };
      });
      return { kind: 'multipoint', parts };
    }
    case 'MultiLineString': {
      parseCrs(obj, false);
      const coords = obj.coordinates;
      if (!Array.isArray(coords)) throw badGeo('MultiLineString coordinates must be an array');
      if (coords.length === 0) throw badGeo('MultiLineString coordinates must have at least 1 element');
      return { kind: 'multiline', parts: coords.map((c) => parseLineCoordinates(c, obj, validate)) };
    }
    case 'MultiPolygon': {
      parseCrs(obj, false);
      const coords = obj.coordinates;
      if (!Array.isArray(coords)) throw badGeo('MultiPolygon coordinates must be an array');
      if (coords.length === 0) throw badGeo('MultiPolygon coordinates must have at least 1 element');
      return { kind: 'multipolygon', parts: coords.map((c) => parsePolygonCoordinates(c, validate)) };
    }
    default: {
      parseCrs(obj, false);
      if (nested) throw badGeo(`GeometryCollections cannot be nested: ${formatValue(obj)}`);
      const geometries = obj.geometries;
      if (!Array.isArray(geometries)) throw badGeo('GeometryCollection geometries must be an array');
      if (geometries.length === 0) throw badGeo('GeometryCollection geometries must have at least 1 element');
      const parts = geometries.map((g, i) => {
        if (!isDocument(g)) throw badGeo(`Element ${i} of "geometries" is not an object`);
        return parseGeoJson(g, validate, true);
      });
      return { kind: 'collection', parts };
    }
  }
}

/**
 * A stored value as a geometry (parseFromStorage): an array or a document whose first value is
 * a number is a legacy pair (extra values allowed), anything else GeoJSON. Throws BadValue.
 */
export function parseStoredGeometry(v: unknown, validate = true): Geometry {
  if (!isObjectLike(v)) throw badGeo(`geo element must be an array or object: ${formatValue(v)}`);
  if (Array.isArray(v) || isNumber(elementsOf(v)[0])) return legacyPoint(parseFlatPoint(v, true));
  return parseGeoJson(v, validate);
}

/** `parseStoredGeometry`, or null when the value is no geometry. */
export function storedGeometryOrNull(v: unknown): Geometry | null {
  if (!isObjectLike(v)) return null;
  try {
    return parseStoredGeometry(v);
  } catch (e) {
    if (e instanceof CommandError) return null;
    throw e;
  }
}

/**
 * A query point (parseQueryPoint): a legacy pair (exactly two numbers) or a GeoJSON Point.
 * Throws BadValue.
 */
export function parseQueryPoint(v: unknown): GeoPoint {
  if (!isObjectLike(v)) throw badGeo(`Point must be an array or object, instead got type ${typeName(v)}`);
  if (Array.isArray(v) || isNumber(elementsOf(v)[0])) return legacyPoint(parseFlatPoint(v, false));
  // parseGeoJSONPoint: a missing type is taken as Point; another type is refused.
  if ('type' in v && (v as Document).type !== 'Point') throw badGeo(`unknown GeoJSON type: ${formatValue(v)}`);
  return parsePointObject(v as Document);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'double';
}

/** `$box`: two corner points. */
export function parseBox(v: Document | unknown[]): GeoBox {
  const els = elementsOf(v);
  if (!isObjectLike(els[0]) || !isObjectLike(els[1])) throw badGeo('Point must be an array or object');
  return { kind: 'box', box: boxOf(parseFlatPoint(els[0], false), parseFlatPoint(els[1], false)) };
}

/** `$polygon`: at least three flat points. */
export function parseFlatPolygon(v: Document | unknown[]): GeoFlatPolygon {
  const points = elementsOf(v).map((p) => parseFlatPoint(p, false));
  if (points.length < 3) throw badGeo('Polygon must have at least 3 points');
  return { kind: 'flatPolygon', points };
}

function parseRadius(v: unknown): number {
  if (!isNumber(v) || !(toDouble(v) >= 0)) throw badGeo('radius must be a non-negative number');
  return toDouble(v);
}

/** `$center`: a flat point and a radius. */
export function parseCircle(v: Document | unknown[]): GeoCircle {
  const els = elementsOf(v);
  const center = parseFlatPoint(els[0], false);
  const radius = parseRadius(els[1]);
  if (els.length > 2) throw badGeo('Only 2 fields allowed for circular region');
  return { kind: 'circle', center, radius };
}

/** `$centerSphere`: a lng/lat point and a radius in radians. */
export function parseCap(v: Document | unknown[]): GeoCap {
  const els = elementsOf(v);
  const center = parseFlatPoint(els[0], false);
  if (!isValidLngLat(center.x, center.y)) throw outOfBounds(center.x, center.y);
  const radius = parseRadius(els[1]);
  if (els.length > 2) throw badGeo('Only 2 fields allowed for circular region');
  return { kind: 'cap', center: toVec(center.x, center.y), radius };
}
