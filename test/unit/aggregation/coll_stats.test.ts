import { describe, expect, it } from 'vitest';
import { Decimal128, Double, Long } from '../../../src/bson/library.js';
import { expectCommandError } from './helpers.js';
import { NOW, runSystem } from './system_stage_helpers.js';

const server = { storageStats: (_: string, scale: number) => ({ scaleFactor: scale }), documentCount: () => 4 };
const ZERO = { latency: Long.ZERO, ops: Long.ZERO, queryableEncryptionLatencyMicros: Long.ZERO };

describe('$collStats', () => {
  it('reports in mongod order, null options read as absent', () => {
    expect(runSystem([{ $collStats: { count: {}, latencyStats: {}, storageStats: null, queryExecStats: {} } }], { server })).toEqual([
      { ns: 'test.c', host: 'h:1', localTime: NOW, latencyStats: { reads: ZERO, writes: ZERO, commands: ZERO, transactions: ZERO }, count: 4, queryExecStats: { collectionScans: { total: Long.ZERO, nonTailable: Long.ZERO } } },
    ]);
  });
  it('histograms: true adds each histogram', () => {
    const [out] = runSystem([{ $collStats: { latencyStats: { histograms: true } } }], { server });
    expect((out!.latencyStats as Record<string, unknown>).reads).toEqual({ latency: Long.ZERO, ops: Long.ZERO, histogram: [], queryableEncryptionLatencyMicros: Long.ZERO });
  });
  const scales: Array<[string, unknown, number]> = [
    ['a Decimal128 half to even', Decimal128.fromString('1.5'), 2],
    ['an Int64 beyond int32, clamped', Long.fromString('2147483648'), 2147483647],
    ['infinity, clamped', new Double(Infinity), 2147483647],
    ['null', null, 1],
  ];
  for (const [name, scale, factor] of scales) {
    it(`scale ${name}`, () => expect(runSystem([{ $collStats: { storageStats: { scale } } }], { server })[0]!.storageStats).toEqual({ scaleFactor: factor }));
  }
  it('refuses a scale below 1 (2), of another type (14), unknown sub-options (40415), a histograms of another type (14)', () => {
    expectCommandError(() => runSystem([{ $collStats: { storageStats: { scale: new Double(NaN) } } }], { server }), 2, 'scale has to be >= 1');
    expectCommandError(() => runSystem([{ $collStats: { storageStats: { scale: 'x' } } }], { server }), 14, "BSON field '$collStats.storageStats.scale' is the wrong type 'string', expected type 'number'");
    expectCommandError(() => runSystem([{ $collStats: { latencyStats: { x: 1 } } }], { server }), 40415, "BSON field '$collStats.latencyStats.x' is an unknown field.");
    expectCommandError(() => runSystem([{ $collStats: { latencyStats: { histograms: null } } }], { server }), 14, "BSON field '$collStats.latencyStats.histograms' is the wrong type 'null', expected type 'bool'");
  });
  it('count and queryExecStats are empty objects (31170); storageStats passes collStats options through', () => {
    expectCommandError(() => runSystem([{ $collStats: { count: { a: 1 } } }], { server }), 31170, 'count argument must be an empty object');
    expectCommandError(() => runSystem([{ $collStats: { queryExecStats: { a: 1 } } }], { server }), 31170, 'queryExecStats argument must be an empty object');
    expect(runSystem([{ $collStats: { storageStats: { verbose: true, other: 1 } } }], { server })[0]!.storageStats).toEqual({ scaleFactor: 1 });
  });
  it('on a view: latencies only (166 for storage figures)', () => {
    expect(runSystem([{ $collStats: { latencyStats: {} } }], { collection: 'v', views: { v: [] }, server })).toHaveLength(1);
    expectCommandError(() => runSystem([{ $collStats: { count: {} } }], { collection: 'v', views: { v: [] }, server }), 166, 'Namespace test.v is a view, not a collection');
  });
});
