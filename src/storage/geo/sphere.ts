/**
 * Geometry on the unit sphere, as mongod's 2dsphere queries see the Earth: points are unit
 * vectors, edges are geodesics (great-circle arcs), and distances are angles in radians
 * (multiplied by `EARTH_RADIUS_METERS` for metres). Written for Mayfly; no S2 code.
 */

/** mongod's `kRadiusOfEarthInMeters` (geoconstants.h). */
export const EARTH_RADIUS_METERS = 6378100;

/** A point of the unit sphere. */
export type Vec3 = readonly [number, number, number];

/** Angular tolerance under which two things touch (about a centimetre on the Earth, an S2 leaf cell). */
export const TOUCH_EPSILON = 1e-9;

const DEG = Math.PI / 180;

/** True when (lng, lat) in degrees lies in mongod's bounds ([-180, 180] × [-90, 90]; NaN is out). */
export function isValidLngLat(lng: number, lat: number): boolean {
  return lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
}

/** The unit vector of (lng, lat) in degrees. */
export function toVec(lng: number, lat: number): Vec3 {
  const phi = lat * DEG;
  const theta = lng * DEG;
  const c = Math.cos(phi);
  return [c * Math.cos(theta), c * Math.sin(theta), Math.sin(phi)];
}

export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function norm(a: Vec3): number {
  return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/** `a` scaled to unit length (the zero vector stays zero). */
export function normalize(a: Vec3): Vec3 {
  const n = norm(a);
  return n === 0 ? a : [a[0] / n, a[1] / n, a[2] / n];
}

/** The angle between two unit vectors, in radians (stable for small and near-antipodal angles). */
export function angle(a: Vec3, b: Vec3): number {
  return Math.atan2(norm(cross(a, b)), dot(a, b));
}

/** The great-circle distance between two (lng, lat) points, in radians. */
export function distanceRadians(lng1: number, lat1: number, lng2: number, lat2: number): number {
  return angle(toVec(lng1, lat1), toVec(lng2, lat2));
}

/** The angle from `p` to the geodesic arc `a`–`b` (its nearest point, an end or an interior point). */
export function distanceToEdge(p: Vec3, a: Vec3, b: Vec3): number {
  const n = cross(a, b);
  const nn = norm(n);
  if (nn < 1e-15) return Math.min(angle(p, a), angle(p, b));
  const u: Vec3 = [n[0] / nn, n[1] / nn, n[2] / nn];
  const s = dot(p, u);
  const q: Vec3 = [p[0] - s * u[0], p[1] - s * u[1], p[2] - s * u[2]];
  // q's direction lies on the arc when it is between a and b as seen around the normal.
  if (norm(q) > 1e-15 && dot(cross(a, q), u) >= 0 && dot(cross(q, b), u) >= 0) {
    return angle(p, normalize(q));
  }
  return Math.min(angle(p, a), angle(p, b));
}

/** True when the geodesic arcs `a`–`b` and `c`–`d` share a point (touching counts). */
export function edgesIntersect(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  if (distanceToEdge(a, c, d) < TOUCH_EPSILON || distanceToEdge(b, c, d) < TOUCH_EPSILON) return true;
  if (distanceToEdge(c, a, b) < TOUCH_EPSILON || distanceToEdge(d, a, b) < TOUCH_EPSILON) return true;
  return edgesCross(a, b, c, d);
}

/** True when the arcs `a`–`b` and `c`–`d` cross at a point interior to both. */
export function edgesCross(a: Vec3, b: Vec3, c: Vec3, d: Vec3): boolean {
  const n1 = cross(a, b);
  const n2 = cross(c, d);
  const sa = Math.sign(dot(n2, a));
  const sb = Math.sign(dot(n2, b));
  const sc = Math.sign(dot(n1, c));
  const sd = Math.sign(dot(n1, d));
  if (sa === 0 || sb === 0 || sc === 0 || sd === 0) return false;
  if (sa === sb || sc === sd) return false;
  // The two great circles meet at ±x; the arcs cross when one of them lies on both.
  const x = normalize(cross(n1, n2));
  const onArc = (p: Vec3, s: Vec3, e: Vec3, n: Vec3): boolean => dot(cross(s, p), n) > 0 && dot(cross(p, e), n) > 0;
  const neg: Vec3 = [-x[0], -x[1], -x[2]];
  return (onArc(x, a, b, n1) && onArc(x, c, d, n2)) || (onArc(neg, a, b, n1) && onArc(neg, c, d, n2));
}

/**
 * The sum of the turning angles of a closed loop (Gauss–Bonnet: 2π minus the area on its left),
 * positive for a loop whose left side is the smaller one.
 */
export function turningAngle(loop: readonly Vec3[]): number {
  const n = loop.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const a = loop[(i + n - 1) % n]!;
    const b = loop[i]!;
    const c = loop[(i + 1) % n]!;
    const n1 = cross(a, b);
    const n2 = cross(b, c);
    sum += Math.atan2(dot(cross(n1, n2), b), dot(n1, n2));
  }
  return sum;
}

/** The area on the left of a closed loop, in steradians. */
export function loopArea(loop: readonly Vec3[]): number {
  return 2 * Math.PI - turningAngle(loop);
}

/**
 * How many times the loop winds around `p` as seen from `p` (its stereographic picture from the
 * antipode): +1 when `p` is on the loop's left and the antipode on its right, -1 the other way
 * round, 0 when both are on one side.
 */
export function windingAround(p: Vec3, loop: readonly Vec3[]): number {
  const n = loop.length;
  let sum = 0;
  const tangent = (v: Vec3): Vec3 => {
    const s = dot(v, p);
    return [v[0] - s * p[0], v[1] - s * p[1], v[2] - s * p[2]];
  };
  for (let i = 0; i < n; i++) {
    const ta = tangent(loop[i]!);
    const tb = tangent(loop[(i + 1) % n]!);
    sum += Math.atan2(dot(p, cross(ta, tb)), dot(ta, tb));
  }
  return Math.round(sum / (2 * Math.PI));
}

/** The smallest angle from `p` to the boundary of a closed loop. */
export function distanceToLoop(p: Vec3, loop: readonly Vec3[]): number {
  let best = Infinity;
  for (let i = 0; i < loop.length; i++) best = Math.min(best, distanceToEdge(p, loop[i]!, loop[(i + 1) % loop.length]!));
  return best;
}

/** The smallest angle from `p` to a polyline. */
export function distanceToPolyline(p: Vec3, line: readonly Vec3[]): number {
  if (line.length === 1) return angle(p, line[0]!);
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) best = Math.min(best, distanceToEdge(p, line[i]!, line[i + 1]!));
  return best;
}

/**
 * True when `p` lies strictly in the region on the left of `loop`; `wide` says whether that region
 * is larger than a hemisphere (a strict-winding polygon may be), which decides the case where the
 * loop does not separate `p` from its antipode.
 */
export function leftOfLoop(p: Vec3, loop: readonly Vec3[], wide: boolean): boolean {
  const w = windingAround(p, loop);
  return wide ? w !== -1 : w === 1;
}
