/** Flat geometry tables of the legacy shapes (src/storage/geo/planar.ts). */
import { describe, expect, test } from 'vitest';
import { boxContains, boxOf, circleContains, planarDistance, polygonContains } from '../../../src/storage/geo/planar.js';

describe('$box', () => {
  const box = boxOf({ x: 10, y: 10 }, { x: 0, y: 0 });
  test.each([
    [5, 5, true],
    [0, 0, true],
    [10, 5, true],
    [10.0001, 5, false],
    [-1, 5, false],
  ])('(%d, %d) in [[0,0],[10,10]]: %s', (x, y, expected) => {
    expect(boxContains(box, { x, y })).toBe(expected);
  });
});

describe('$center', () => {
  test.each([
    [3, 4, true],
    [0, 5, true],
    [3.01, 4, false],
    [0, 0, true],
  ])('(%d, %d) within 5 of the origin: %s', (x, y, expected) => {
    expect(circleContains({ x: 0, y: 0 }, 5, { x, y })).toBe(expected);
  });
  test('distance is Euclidean', () => {
    expect(planarDistance({ x: 0, y: 0 }, { x: 3, y: 4 })).toBe(5);
  });
});

describe('$polygon', () => {
  const square = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 0, y: 10 },
  ];
  test.each([
    [5, 5, true],
    [15, 5, false],
    [5, 0, true],
    [0, 0, true],
    [10, 10, true],
    [-0.5, 5, false],
  ])('(%d, %d) in the square: %s', (x, y, expected) => {
    expect(polygonContains(square, { x, y })).toBe(expected);
  });
  test('a degenerate polygon holds the points of its segments', () => {
    const flat = [
      { x: 0, y: 0 },
      { x: 3, y: 0 },
      { x: 6, y: 0 },
    ];
    expect(polygonContains(flat, { x: 3, y: 0 })).toBe(true);
    expect(polygonContains(flat, { x: 3, y: 1 })).toBe(false);
  });
  test('a point of a diagonal edge falls as the crossing count does', () => {
    const triangle = [
      { x: 0, y: 0 },
      { x: 10, y: 10 },
      { x: 10, y: 0 },
    ];
    expect(polygonContains(triangle, { x: 5, y: 5 })).toBe(false);
    expect(polygonContains(triangle, { x: 5, y: 1 })).toBe(true);
    const bowtie = [
      { x: 0, y: 0 },
      { x: 10, y: 10 },
      { x: 10, y: 0 },
      { x: 0, y: 10 },
    ];
    expect([2, 5, 8].map((c) => polygonContains(bowtie, { x: c, y: c }))).toEqual([true, true, false]);
  });
});
