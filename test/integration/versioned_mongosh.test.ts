/**
 * Versioned collections from mongosh (the walkthrough of docs/versioned.md): the seed's offset
 * and TTL examples moved to the instant 1800000000000, run with `db.runCommand` and
 * `db.adminCommand` against a server on the manual clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MayflyServer } from '../../src/index.js';
import { runMongosh } from '../support/processes.js';

let server: MayflyServer;
beforeAll(async () => {
  server = await MayflyServer.create({ clock: 'manual' });
  server.clock.advance(1800000000000 - server.clock.now());
});
afterAll(async () => {
  await server.stop();
});

describe('mongosh', () => {
  test("the seed's offset and TTL examples", async () => {
    const script = [
      "db.createCollection('quotes', { versioned: {} })",
      "print('OPTIONS ' + JSON.stringify(db.getCollectionInfos({ name: 'quotes' })[0].options))",
      "try { db.runCommand({ putRow: 'quotes', row: { _id: 'ACME', bid: 41 }, timestamps: { bid: 1799913599000 } }) } catch (e) { print('ERR ' + e.code + ' ' + e.message) }",
      "print('PUT ' + db.runCommand({ putRow: 'quotes', row: { _id: 'ACME', bid: 41 }, timestamps: { bid: 1799913600000 } }).timestamps.bid.toString())",
      "db.createCollection('prices', { versioned: { maxVersions: 3, timeToLive: 86400 } })",
      "db.runCommand({ putRow: 'prices', row: { _id: 'apple', price: 10 }, timestamps: { price: 1799913600000 } })",
      "print('FIND ' + JSON.stringify(db.prices.find().toArray()))",
      'db.adminCommand({ mayflyAdvanceClock: 0.001 })',
      "print('AFTER ' + JSON.stringify(db.prices.find().toArray()) + ' ' + JSON.stringify(db.runCommand({ getRow: 'prices', _id: 'apple' }).row))",
      "db.runCommand({ collMod: 'prices', versioned: { timeToLive: 172800 } })",
      "print('BACK ' + JSON.stringify(db.prices.find().toArray()))",
      "db.runCommand({ collMod: 'prices', versioned: { timeToLive: 86400 } })",
      "print('PASS ' + db.adminCommand({ mayflyRunTtlPass: 1 }).deletedVersions.toString())",
      "db.runCommand({ collMod: 'prices', versioned: { timeToLive: 172800 } })",
      "print('GONE ' + JSON.stringify(db.prices.find().toArray()))",
    ].join(';\n');
    const out = await runMongosh([server.getUri('shop')], script);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n').filter((line) => line.length > 0)).toEqual([
      'OPTIONS {"versioned":{"maxVersions":1,"timeToLive":-1,"maxTimeDeviation":86400}}',
      'ERR 2 Invalid timestamp. Cell:bid. Timestamp:1799913599000. MinTimestamp:1799913600000. MaxTimestamp:1800086400000.',
      'PUT 1799913600000',
      'FIND [{"_id":"apple","price":10}]',
      'AFTER [] null',
      'BACK [{"_id":"apple","price":10}]',
      'PASS 1',
      'GONE []',
    ]);
  });
});
