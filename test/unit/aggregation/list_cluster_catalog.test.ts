import { describe, expect, it } from 'vitest';
import { expectCommandError } from './helpers.js';
import { runSystem } from './system_stage_helpers.js';

const ENTRIES = [{ db: 'test', ns: 'test.c', type: 'collection', options: {}, info: { readOnly: false }, sharded: false }];
const db = { collection: null, server: { catalogEntries: () => ENTRIES } };

describe('$listClusterCatalog', () => {
  it("lists the server's catalog entries; shards: true adds the (absent) shards", () => {
    expect(runSystem([{ $listClusterCatalog: {} }], db)).toEqual(ENTRIES);
    expect(runSystem([{ $listClusterCatalog: { shards: true, balancingConfiguration: true } }], db)).toEqual([{ ...ENTRIES[0], shards: [] }]);
  });
  it('takes an object (9621302), of booleans (14), known fields (40415), on the database (9621301)', () => {
    expectCommandError(() => runSystem([{ $listClusterCatalog: 1 }], db), 9621302, '$listClusterCatalog must take a nested object but found: int');
    expectCommandError(() => runSystem([{ $listClusterCatalog: { shards: null } }], db), 14, "BSON field '$listClusterCatalog.shards' is the wrong type 'null', expected type 'bool'");
    expectCommandError(() => runSystem([{ $listClusterCatalog: { Shards: true } }], db), 40415, "BSON field '$listClusterCatalog.Shards' is an unknown field.");
    expectCommandError(() => runSystem([{ $listClusterCatalog: {} }]), 9621301, '$listClusterCatalog must be run against the database with {aggregate: 1}, not a collection');
  });
});
