import { describe, expect, test } from 'vitest';
import { ExpirySchedule } from '../../../src/ttl/schedule.js';

function drain<T>(s: ExpirySchedule<T>): T[] {
  const out: T[] = [];
  for (let item = s.pop(); item !== undefined; item = s.pop()) out.push(item);
  return out;
}

describe('ExpirySchedule', () => {
  test('an empty schedule peeks +Infinity and pops undefined', () => {
    const s = new ExpirySchedule<string>();
    expect(s.size).toBe(0);
    expect(s.peekKey()).toBe(Infinity);
    expect(s.pop()).toBeUndefined();
  });

  test('pops in key order whatever the push order', () => {
    const s = new ExpirySchedule<string>();
    for (const [k, v] of [[30, 'c'], [10, 'a'], [50, 'e'], [20, 'b'], [40, 'd']] as const) s.push(k, v);
    expect(s.size).toBe(5);
    expect(s.peekKey()).toBe(10);
    expect(drain(s)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(s.size).toBe(0);
  });

  test('keeps duplicates (an updated record has several entries)', () => {
    const s = new ExpirySchedule<string>();
    s.push(5, 'x');
    s.push(5, 'x');
    s.push(1, 'y');
    expect(drain(s)).toEqual(['y', 'x', 'x']);
  });

  test('grows past its initial capacity and stays ordered (10,000 random keys)', () => {
    const s = new ExpirySchedule<number>();
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 1e9;
    const keys: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const k = Math.floor(rand());
      keys.push(k);
      s.push(k, k);
    }
    keys.sort((a, b) => a - b);
    expect(drain(s)).toEqual(keys);
  });

  test('rebuild replaces the contents in heap order', () => {
    const s = new ExpirySchedule<string>();
    s.push(1, 'old');
    s.rebuild([[9, 'i'], [3, 'c'], [7, 'g'], [1, 'a'], [5, 'e']]);
    expect(s.size).toBe(5);
    expect(s.peekKey()).toBe(1);
    expect(drain(s)).toEqual(['a', 'c', 'e', 'g', 'i']);
  });

  test('entries lists every entry; clear empties', () => {
    const s = new ExpirySchedule<string>();
    s.push(2, 'b');
    s.push(1, 'a');
    expect([...s.entries()].sort((x, y) => x[0] - y[0])).toEqual([[1, 'a'], [2, 'b']]);
    s.clear();
    expect(s.size).toBe(0);
    expect(s.peekKey()).toBe(Infinity);
  });

  test('popping the due prefix touches only what is due', () => {
    const s = new ExpirySchedule<number>();
    for (let i = 0; i < 1000; i++) s.push(i, i);
    const due: number[] = [];
    while (s.peekKey() <= 99) due.push(s.pop()!);
    expect(due).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(s.size).toBe(900);
    expect(s.peekKey()).toBe(100);
  });
});
