/** Spherical geometry tables: distances, edges, loops (src/storage/geo/sphere.ts). */
import { describe, expect, test } from 'vitest';
import {
  EARTH_RADIUS_METERS,
  distanceRadians,
  distanceToEdge,
  edgesCross,
  edgesIntersect,
  isValidLngLat,
  leftOfLoop,
  loopArea,
  toVec,
  turningAngle,
} from '../../../src/storage/geo/sphere.js';

const v = toVec;

describe('distances', () => {
  test.each([
    [0, 0, 0, 0, 0],
    [0, 0, 90, 0, Math.PI / 2],
    [0, 0, 0, 90, Math.PI / 2],
    [0, 0, 180, 0, Math.PI],
    [-180, 0, 180, 0, 0],
    [10, 0, 20, 0, Math.PI / 18],
  ])('(%d, %d) to (%d, %d) is %f radians', (lng1, lat1, lng2, lat2, expected) => {
    expect(distanceRadians(lng1, lat1, lng2, lat2)).toBeCloseTo(expected, 12);
  });

  test('one degree of the equator is 111318.845 m on a sphere of 6378.1 km', () => {
    expect(distanceRadians(0, 0, 1, 0) * EARTH_RADIUS_METERS).toBeCloseTo(111318.84502145034, 6);
  });

  test('the distance to an edge is to its nearest point: its inside, else an end', () => {
    expect(distanceToEdge(v(1, 1), v(0, 0), v(2, 0))).toBeCloseTo(Math.PI / 180, 12);
    expect(distanceToEdge(v(5, 0), v(0, 0), v(2, 0))).toBeCloseTo((3 * Math.PI) / 180, 12);
  });
});

describe('bounds', () => {
  test.each([
    [0, 0, true],
    [180, 90, true],
    [-180, -90, true],
    [180.0001, 0, false],
    [0, -90.5, false],
    [Number.NaN, 0, false],
  ])('(%d, %d) valid: %s', (lng, lat, expected) => {
    expect(isValidLngLat(lng, lat)).toBe(expected);
  });
});

describe('edges', () => {
  test('an equator segment and a meridian segment cross', () => {
    expect(edgesCross(v(-10, 0), v(10, 0), v(0, -10), v(0, 10))).toBe(true);
  });
  test('segments that meet at an end touch but do not cross', () => {
    expect(edgesCross(v(0, 0), v(10, 0), v(10, 0), v(10, 10))).toBe(false);
    expect(edgesIntersect(v(0, 0), v(10, 0), v(10, 0), v(10, 10))).toBe(true);
  });
  test('disjoint segments neither cross nor touch', () => {
    expect(edgesIntersect(v(0, 0), v(10, 0), v(0, 5), v(10, 5))).toBe(false);
  });
});

describe('loops', () => {
  const octant = [v(0, 0), v(90, 0), v(0, 90)];
  test('the octant, counter-clockwise, has an eighth of the sphere on its left', () => {
    expect(loopArea(octant)).toBeCloseTo(Math.PI / 2, 12);
    expect(turningAngle(octant)).toBeCloseTo((3 * Math.PI) / 2, 12);
  });
  test('the octant, clockwise, has seven eighths on its left', () => {
    expect(loopArea([...octant].reverse())).toBeCloseTo((7 * Math.PI) / 2, 12);
  });
  test.each([
    [30, 30, true],
    [-30, 30, false],
    [30, -30, false],
    [-150, -30, false],
  ])('(%d, %d) is inside the octant: %s', (lng, lat, expected) => {
    expect(leftOfLoop(v(lng, lat), octant, false)).toBe(expected);
  });
  test('inside a wide loop is everything off its small side', () => {
    const reversed = [...octant].reverse();
    expect(leftOfLoop(v(30, 30), reversed, true)).toBe(false);
    expect(leftOfLoop(v(-150, -30), reversed, true)).toBe(true);
  });
});
