/** GeoJSON and legacy shape parsing with mongod's messages (src/storage/geo/geojson.ts), and the predicates over them. */
import { describe, expect, test } from 'vitest';
import type { Document } from '../../../src/bson/library.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { parseCap, parseCircle, parseGeoJson, parseQueryPoint, parseStoredGeometry, streamNumber } from '../../../src/storage/geo/geojson.js';
import { geometriesIntersect, regionContains, sphericalDistance } from '../../../src/storage/geo/predicates.js';
import { EARTH_RADIUS_METERS, toVec } from '../../../src/storage/geo/sphere.js';

function failure(fn: () => unknown): [number, string] | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (err) {
    if (err instanceof CommandError) return [err.code, err.message];
    throw err;
  }
}

const square = (x0: number, y0: number, x1: number, y1: number): Document => ({
  type: 'Polygon',
  coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]],
});

describe('parse errors', () => {
  test.each<[Document, string]>([
    [{ type: 'Point', coordinates: [200, 0] }, 'longitude/latitude is out of bounds, lng: 200 lat: 0'],
    [{ type: 'Point', coordinates: ['a', 0] }, 'Point must only contain numeric elements'],
    [{ type: 'point', coordinates: [0, 0] }, 'unknown GeoJSON type: { type: "point", coordinates: [ 0, 0 ] }'],
    [{ type: 'LineString', coordinates: [[0, 0]] }, 'GeoJSON LineString must have at least 2 vertices: [ [ 0, 0 ] ]'],
    [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, 'Loop is not closed, first vertex does not equal last vertex: [ [ 0, 0 ], [ 1, 0 ], [ 1, 1 ], [ 0, 1 ] ]'],
    [{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [0, 0]]] }, 'Loop must have at least 3 different vertices: [ [ 0, 0 ], [ 1, 0 ], [ 0, 0 ] ]'],
    [{ type: 'Polygon', coordinates: [] }, 'Polygon has no loops.'],
    [{ type: 'MultiPoint', coordinates: [] }, 'MultiPoint coordinates must have at least 1 element'],
    [{ type: 'GeometryCollection', geometries: 5 }, 'GeometryCollection geometries must be an array'],
    [{ type: 'Point', coordinates: [0, 0], crs: { type: 'name', properties: { name: 'nope' } } }, 'Unknown CRS name: nope'],
  ])('%j', (obj, message) => {
    expect(failure(() => parseGeoJson(obj))).toEqual([2, message]);
  });

  test('a self-intersecting ring is not a valid loop', () => {
    const bowtie = { type: 'Polygon', coordinates: [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]] };
    const result = failure(() => parseGeoJson(bowtie));
    expect(result).not.toBe('no error');
    expect((result as [number, string])[0]).toBe(2);
    expect((result as [number, string])[1].startsWith('Loop is not valid: [ [ 0, 0 ], [ 10, 10 ], [ 10, 0 ], [ 0, 10 ], [ 0, 0 ] ] Edges ')).toBe(true);
  });

  test('a hole must lie inside the shell', () => {
    const bad = { type: 'Polygon', coordinates: [[[0, 0], [5, 0], [5, 5], [0, 5], [0, 0]], [[10, 10], [11, 10], [11, 11], [10, 10]]] };
    expect(failure(() => parseGeoJson(bad))[1]).toContain('Secondary loops not contained by first exterior loop - secondary loops must be holes');
  });

  test('legacy shapes', () => {
    expect(failure(() => parseCircle([[0, 0], -1]))).toEqual([2, 'radius must be a non-negative number']);
    expect(failure(() => parseCircle([[0, 0], 1, 2]))).toEqual([2, 'Only 2 fields allowed for circular region']);
    expect(failure(() => parseCap([[181, 0], 1]))).toEqual([2, 'longitude/latitude is out of bounds, lng: 181 lat: 0']);
    expect(failure(() => parseQueryPoint([0, 0, 0]))).toEqual([2, 'Point must only contain two numeric elements']);
    expect(failure(() => parseStoredGeometry('x'))).toEqual([2, 'geo element must be an array or object: "x"']);
  });

  test('C++ stream number formatting', () => {
    expect([200, 200.5, -0.25, 1e21, Number.NaN].map(streamNumber)).toEqual(['200', '200.5', '-0.25', '1e+21', 'nan']);
  });
});

describe('predicates', () => {
  const region = parseGeoJson(square(-10, -10, 10, 10));
  const pt = (x: number, y: number) => parseStoredGeometry({ type: 'Point', coordinates: [x, y] });

  test.each([
    [0, 0, true],
    [10, 0, true],
    [11, 0, false],
    [0, -10, true],
  ])('$geoWithin the square: (%d, %d) %s', (x, y, expected) => {
    expect(regionContains(region, pt(x, y))).toBe(expected);
  });

  test('a hole leaves its inside out, its boundary in', () => {
    const holed = parseGeoJson({
      type: 'Polygon',
      coordinates: [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]], [[-1, -1], [1, -1], [1, 1], [-1, 1], [-1, -1]]],
    });
    expect(regionContains(holed, pt(0, 0))).toBe(false);
    expect(regionContains(holed, pt(5, 5))).toBe(true);
    expect(regionContains(holed, pt(1, 0))).toBe(true);
  });

  test('a flat $box holds legacy and GeoJSON points alike, nothing else', () => {
    const box = { kind: 'box', box: { min: { x: 0, y: 0 }, max: { x: 5, y: 5 } } } as const;
    expect(regionContains(box, parseStoredGeometry([1, 1]))).toBe(true);
    expect(regionContains(box, pt(1, 1))).toBe(true);
    expect(regionContains(box, parseStoredGeometry(square(1, 1, 2, 2)))).toBe(false);
  });

  test('polygons sharing only a vertex or an edge do not intersect; overlapping ones do', () => {
    expect(geometriesIntersect(region, parseStoredGeometry(square(10, 10, 20, 20)))).toBe(false);
    expect(geometriesIntersect(region, parseStoredGeometry(square(10, -10, 20, 10)))).toBe(false);
    expect(geometriesIntersect(region, parseStoredGeometry(square(-10, -10, 10, 10)))).toBe(true);
    expect(geometriesIntersect(region, parseStoredGeometry(square(5, 5, 15, 15)))).toBe(true);
  });

  test('a line crossing the square intersects it', () => {
    const line = parseStoredGeometry({ type: 'LineString', coordinates: [[-20, 0], [20, 0]] });
    expect(geometriesIntersect(region, line)).toBe(true);
    expect(regionContains(region, line)).toBe(false);
  });

  test('distances to a point, a line and a polygon (0 inside)', () => {
    const from = toVec(1, 1);
    const degree = (Math.PI / 180) * EARTH_RADIUS_METERS;
    expect(sphericalDistance(from, pt(1, 0))! * EARTH_RADIUS_METERS).toBeCloseTo(degree, 6);
    expect(sphericalDistance(from, parseStoredGeometry({ type: 'LineString', coordinates: [[0, 0], [2, 0]] }))! * EARTH_RADIUS_METERS).toBeCloseTo(degree, 6);
    expect(sphericalDistance(from, region)).toBe(0);
  });
});
