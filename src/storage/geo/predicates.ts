/**
 * The geospatial predicates over parsed geometries (geometry_container.cpp `contains`,
 * `intersects`, and the distances `$near`/`$geoNear` sort by): a query region against a stored
 * geometry, boundaries included as mongod includes them (on the sphere, within about a
 * centimetre: an S2 leaf cell).
 */
import type { GeoPoint, GeoPolygon, Geometry } from './geojson.js';
import { boxContains, circleContains, planarDistance, polygonContains, type Point } from './planar.js';
import {
  angle,
  distanceToEdge,
  distanceToLoop,
  distanceToPolyline,
  edgesIntersect,
  leftOfLoop,
  TOUCH_EPSILON,
  type Vec3,
} from './sphere.js';

/** The simple spherical pieces of a geometry: points, polylines, polygons. */
type Piece = { kind: 'point'; v: Vec3 } | { kind: 'line'; vs: readonly Vec3[] } | { kind: 'polygon'; p: GeoPolygon };

/** The pieces of a spherical geometry; null when it has no place on the sphere (a flat shape or an out-of-range pair). */
function piecesOf(g: Geometry, out: Piece[] = []): Piece[] | null {
  switch (g.kind) {
    case 'point':
      if (g.vec === null) return null;
      out.push({ kind: 'point', v: g.vec });
      return out;
    case 'line':
      out.push({ kind: 'line', vs: g.vertices });
      return out;
    case 'polygon':
      out.push({ kind: 'polygon', p: g });
      return out;
    case 'multipoint':
    case 'multiline':
    case 'multipolygon':
    case 'collection':
      for (const part of g.parts) if (piecesOf(part, out) === null) return null;
      return out;
    default:
      return null;
  }
}

/** True when `v` is in polygon `p` (its boundary and its holes' boundaries included). */
export function polygonHoldsPoint(p: GeoPolygon, v: Vec3): boolean {
  const shell = p.loops[0]!;
  if (distanceToLoop(v, shell) < TOUCH_EPSILON) return true;
  if (!leftOfLoop(v, shell, p.wide)) return false;
  for (let i = 1; i < p.loops.length; i++) {
    const hole = p.loops[i]!;
    if (distanceToLoop(v, hole) >= TOUCH_EPSILON && leftOfLoop(v, hole, false)) return false;
  }
  return true;
}

/** True when polygon `p` holds the polyline `vs` (every vertex in, no edge leaving it). */
function polygonHoldsLine(p: GeoPolygon, vs: readonly Vec3[], closed: boolean): boolean {
  for (const v of vs) if (!polygonHoldsPoint(p, v)) return false;
  const n = vs.length;
  const edges = closed ? n : n - 1;
  for (let i = 0; i < edges; i++) {
    const a = vs[i]!;
    const b = vs[(i + 1) % n]!;
    for (const loop of p.loops) {
      for (let j = 0; j < loop.length; j++) {
        if (properCross(a, b, loop[j]!, loop[(j + 1) % loop.length]!)) return false;
      }
    }
    // An edge whose ends are in may still pass through a hole or outside a concave shell.
    if (!polygonHoldsPoint(p, midpoint(a, b))) return false;
  }
  return true;
}

function midpoint(a: Vec3, b: Vec3): Vec3 {
  const m: Vec3 = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const n = Math.hypot(m[0], m[1], m[2]);
  return n === 0 ? a : [m[0] / n, m[1] / n, m[2] / n];
}

/** Arcs crossing at a point interior to both, farther than the touch tolerance from every end. */
function properCross(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  if (!edgesIntersect(a, b, c, d)) return false;
  return (
    distanceToEdge(a, c, d) >= TOUCH_EPSILON &&
    distanceToEdge(b, c, d) >= TOUCH_EPSILON &&
    distanceToEdge(c, a, b) >= TOUCH_EPSILON &&
    distanceToEdge(d, a, b) >= TOUCH_EPSILON
  );
}

function polygonHoldsPolygon(outer: GeoPolygon, inner: GeoPolygon): boolean {
  if (!polygonHoldsLine(outer, inner.loops[0]!, true)) return false;
  // A hole of the container inside the contained shell leaves part of it out.
  for (let i = 1; i < outer.loops.length; i++) {
    const hole = outer.loops[i]!;
    for (const v of hole) if (polygonHoldsPoint(inner, v) && distanceToLoop(v, inner.loops[0]!) >= TOUCH_EPSILON) return false;
  }
  return true;
}

/** True when `v` is strictly inside polygon `p` (not on any of its boundaries). */
function polygonInteriorHolds(p: GeoPolygon, v: Vec3): boolean {
  for (const loop of p.loops) if (distanceToLoop(v, loop) < TOUCH_EPSILON) return false;
  return polygonHoldsPoint(p, v);
}

/** A point inside a polygon's shell (the mean of its vertices, which is inside a convex shell), or null. */
function innerPoint(p: GeoPolygon): Vec3 | null {
  const shell = p.loops[0]!;
  let x = 0;
  let y = 0;
  let z = 0;
  for (const v of shell) {
    x += v[0];
    y += v[1];
    z += v[2];
  }
  const n = Math.hypot(x, y, z);
  if (n === 0) return null;
  const c: Vec3 = [x / n, y / n, z / n];
  return polygonInteriorHolds(p, c) ? c : null;
}

/** Polygons intersect when their insides overlap: sharing only boundary points (a vertex, an edge) is not enough (S2's semi-open polygons). */
function polygonsIntersect(a: GeoPolygon, b: GeoPolygon): boolean {
  const edgesA = edgesOf({ kind: 'polygon', p: a });
  const edgesB = edgesOf({ kind: 'polygon', p: b });
  for (const [p, q] of edgesA) for (const [r, s] of edgesB) if (properCross(p, q, r, s)) return true;
  for (const [p, q] of edgesA) if (polygonInteriorHolds(b, p) || polygonInteriorHolds(b, midpoint(p, q))) return true;
  for (const [r, s] of edgesB) if (polygonInteriorHolds(a, r) || polygonInteriorHolds(a, midpoint(r, s))) return true;
  const ca = innerPoint(a);
  if (ca !== null && polygonHoldsPoint(b, ca)) return true;
  const cb = innerPoint(b);
  return cb !== null && polygonHoldsPoint(a, cb);
}

function piecesIntersect(a: Piece, b: Piece): boolean {
  if (a.kind === 'point') return pointTouches(a.v, b);
  if (b.kind === 'point') return pointTouches(b.v, a);
  if (a.kind === 'polygon' && b.kind === 'polygon') return polygonsIntersect(a.p, b.p);
  const edgesA = edgesOf(a);
  const edgesB = edgesOf(b);
  for (const [p, q] of edgesA) for (const [r, s] of edgesB) if (edgesIntersect(p, q, r, s)) return true;
  if (b.kind === 'polygon') for (const [p] of edgesA) if (polygonHoldsPoint(b.p, p)) return true;
  if (a.kind === 'polygon') for (const [r] of edgesB) if (polygonHoldsPoint(a.p, r)) return true;
  return false;
}

function pointTouches(v: Vec3, piece: Piece): boolean {
  switch (piece.kind) {
    case 'point':
      return angle(v, piece.v) < TOUCH_EPSILON;
    case 'line':
      return distanceToPolyline(v, piece.vs) < TOUCH_EPSILON;
    case 'polygon':
      return polygonHoldsPoint(piece.p, v);
  }
}

function edgesOf(piece: Piece): Array<[Vec3, Vec3]> {
  const out: Array<[Vec3, Vec3]> = [];
  if (piece.kind === 'line') {
    for (let i = 0; i + 1 < piece.vs.length; i++) out.push([piece.vs[i]!, piece.vs[i + 1]!]);
    if (piece.vs.length === 1) out.push([piece.vs[0]!, piece.vs[0]!]);
  } else if (piece.kind === 'polygon') {
    for (const loop of piece.p.loops) for (let i = 0; i < loop.length; i++) out.push([loop[i]!, loop[(i + 1) % loop.length]!]);
  }
  return out;
}

/** The flat point of a stored geometry (a legacy pair or a GeoJSON Point), or null. */
function flatPointOf(g: Geometry): Point | null {
  return g.kind === 'point' ? { x: g.x, y: g.y } : null;
}

/** True when `region` (a `$geoWithin` shape) holds the stored geometry `g` (GeometryContainer::contains). */
export function regionContains(region: Geometry, g: Geometry): boolean {
  switch (region.kind) {
    case 'box': {
      const p = flatPointOf(g);
      return p !== null && boxContains(region.box, p);
    }
    case 'flatPolygon': {
      const p = flatPointOf(g);
      return p !== null && polygonContains(region.points, p);
    }
    case 'circle': {
      const p = flatPointOf(g);
      return p !== null && circleContains(region.center, region.radius, p);
    }
    default:
      break;
  }
  const pieces = piecesOf(g);
  if (pieces === null) return false;
  return pieces.every((piece) => regionHoldsPiece(region, piece));
}

function regionHoldsPiece(region: Geometry, piece: Piece): boolean {
  switch (region.kind) {
    case 'cap': {
      const within = (v: Vec3): boolean => angle(region.center, v) <= region.radius + TOUCH_EPSILON;
      if (piece.kind === 'point') return within(piece.v);
      if (piece.kind === 'line') return piece.vs.every(within);
      return piece.p.loops[0]!.every(within);
    }
    case 'polygon':
      if (piece.kind === 'point') return polygonHoldsPoint(region, piece.v);
      if (piece.kind === 'line') return polygonHoldsLine(region, piece.vs, false);
      return polygonHoldsPolygon(region, piece.p);
    case 'multipolygon':
    case 'collection':
      return region.parts.some((part) => (part.kind === 'polygon' || part.kind === 'multipolygon') && regionHoldsPiece(part, piece));
    default:
      return false;
  }
}

/** True when the query geometry `query` and the stored geometry `g` share a point (GeometryContainer::intersects). */
export function geometriesIntersect(query: Geometry, g: Geometry): boolean {
  const a = piecesOf(query);
  const b = piecesOf(g);
  if (a === null || b === null) return false;
  for (const p of a) for (const q of b) if (piecesIntersect(p, q)) return true;
  return false;
}

/** The angle from `v` to the nearest point of a stored geometry (0 inside a polygon); null when it has no place on the sphere. */
export function sphericalDistance(v: Vec3, g: Geometry): number | null {
  const pieces = piecesOf(g);
  if (pieces === null) return null;
  let best = Infinity;
  for (const piece of pieces) {
    switch (piece.kind) {
      case 'point':
        best = Math.min(best, angle(v, piece.v));
        break;
      case 'line':
        best = Math.min(best, distanceToPolyline(v, piece.vs));
        break;
      case 'polygon':
        if (polygonHoldsPoint(piece.p, v)) return 0;
        for (const loop of piece.p.loops) best = Math.min(best, distanceToLoop(v, loop));
        break;
    }
  }
  return best;
}

/** The flat distance from `p` to a stored point (legacy or GeoJSON); null for any other geometry. */
export function flatDistance(p: Point, g: Geometry): number | null {
  const q = flatPointOf(g);
  return q === null ? null : planarDistance(p, q);
}

/** The point a distance is measured from, as a unit vector, or null (an out-of-range legacy pair). */
export function pointVec(p: GeoPoint): Vec3 | null {
  return p.vec;
}
