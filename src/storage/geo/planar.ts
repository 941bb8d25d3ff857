/**
 * Flat geometry of the legacy coordinate pairs ('2d' indexes, `$box`, `$polygon`, `$center`,
 * `$near` with a legacy point), with mongod's boundary rules (mongo/src/mongo/db/geo/shapes.cpp):
 * a box holds its edges, a circle holds its rim (within a small tolerance), and a polygon holds
 * what its crossing-count test says (points on its edges are in or out as that test falls).
 */

/** A point of the plane. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** An axis-aligned box, `min` ≤ `max` in both coordinates. */
export interface Box {
  readonly min: Point;
  readonly max: Point;
}

/** The box with corners `a` and `b` (in any order). */
export function boxOf(a: Point, b: Point): Box {
  return { min: { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) }, max: { x: Math.max(a.x, b.x), y: Math.max(a.y, b.y) } };
}

/** True when `p` is in `box`, edges included. */
export function boxContains(box: Box, p: Point): boolean {
  return p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y;
}

/** The Euclidean distance between two points. */
export function planarDistance(a: Point, b: Point): number {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

/** True when `p` is within `radius` of `center` (the rim included, with mongod's relative tolerance). */
export function circleContains(center: Point, radius: number, p: Point): boolean {
  const dx = p.x - center.x;
  const dy = p.y - center.y;
  if (Math.abs(dx) > radius || Math.abs(dy) > radius) return false;
  const squared = dx * dx + dy * dy;
  const rsq = radius * radius;
  const epsilon = Math.max(1, Math.max(squared, rsq)) * Number.EPSILON;
  return squared <= rsq + epsilon;
}

/**
 * The crossing-count test of a point against a polygon (the ring closes itself), as mongod's
 * `Polygon::contains` answers it without tolerance: a vertex, a point of a horizontal edge and a
 * point of a vertical edge are in; a point of another edge is in or out as the count falls.
 */
export function polygonContains(points: readonly Point[], p: Point): boolean {
  const n = points.length;
  let crossings = 0;
  let p1 = points[0]!;
  for (let i = 1; i <= n; i++) {
    const p2 = points[i % n]!;
    if ((p.x === p1.x && p.y === p1.y) || (p.x === p2.x && p.y === p2.y)) return true;
    if (p1.y === p2.y && p.y === p1.y && p.x >= Math.min(p1.x, p2.x) && p.x <= Math.max(p1.x, p2.x)) return true;
    if (p.y > Math.min(p1.y, p2.y) && p.y <= Math.max(p1.y, p2.y) && p.x <= Math.max(p1.x, p2.x) && p1.y !== p2.y) {
      const xCross = ((p.y - p1.y) * (p2.x - p1.x)) / (p2.y - p1.y) + p1.x;
      if (p1.x === p2.x && p.x === p1.x) return true;
      if (p1.x === p2.x || p.x <= xCross) crossings++;
    }
    p1 = p2;
  }
  return crossings % 2 === 1;
}
