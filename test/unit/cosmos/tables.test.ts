/** The Cosmos DB tables (src/cosmos/): versions, rules, capabilities, and the rules as functions. */
import { describe, expect, test } from 'vitest';
import { CAPABILITY_NAMES } from '../../../src/cosmos/capabilities.js';
import { RULE_NAMES, RULES } from '../../../src/cosmos/rule_table.js';
import { cosmosOptionsProblem, resolveCosmosSettings } from '../../../src/cosmos/settings.js';
import { COSMOS_OWN_COMMANDS, COSMOS_SERVER_VERSIONS, COSMOS_VERSIONS, cosmosVersionArray } from '../../../src/cosmos/versions.js';
import { STAGE_CATALOGUE } from '../../../src/storage/aggregation/catalogue.js';
import { MAYFLY_COMMANDS, MONGOD_COMMANDS } from '../../../src/commands/catalogue.js';
import { cosmosCheckSort, indexServesSort } from '../../../src/cosmos/rules/sort_needs_index.js';
import { cosmosCheckTransactionStatement } from '../../../src/cosmos/rules/transaction_limits.js';
import { cosmosCheckStages } from '../../../src/cosmos/rules/unsupported_stages.js';
import { customPathInstantMs } from '../../../src/ttl/policies/cosmos_custom_path.js';
import { Double, Int32, Long } from '../../../src/bson/library.js';
import { errorOf } from '../thrown.js';

const KNOWN_STAGES = new Set(STAGE_CATALOGUE.map(([name]) => name));

describe('versions', () => {
  test('versions, wire versions and versionArray', () => {
    expect(COSMOS_SERVER_VERSIONS.map((v) => [COSMOS_VERSIONS[v].version, COSMOS_VERSIONS[v].maxWireVersion, cosmosVersionArray(COSMOS_VERSIONS[v])])).toEqual([
      ['4.2.0', 8, [4, 2, 0, 0]],
      ['5.0.0', 13, [5, 0, 0, 0]],
      ['6.0.0', 17, [6, 0, 0, 0]],
      ['7.0.0', 21, [7, 0, 0, 0]],
    ]);
  });

  test('every supported stage is one mongod knows, every supported command one mongod 8.2 (or Mayfly) has; each version supports what the one before did', () => {
    for (const v of COSMOS_SERVER_VERSIONS) {
      for (const stage of COSMOS_VERSIONS[v].stages) expect(KNOWN_STAGES.has(stage), stage).toBe(true);
      for (const command of COSMOS_VERSIONS[v].commands) expect(MONGOD_COMMANDS.includes(command) || MAYFLY_COMMANDS.includes(command) || COSMOS_OWN_COMMANDS.includes(command), command).toBe(true);
    }
    for (let i = 1; i < COSMOS_SERVER_VERSIONS.length; i++) {
      const before = COSMOS_VERSIONS[COSMOS_SERVER_VERSIONS[i - 1]!];
      const after = COSMOS_VERSIONS[COSMOS_SERVER_VERSIONS[i]!];
      for (const stage of before.stages) expect(after.stages.has(stage)).toBe(true);
      for (const command of before.commands) expect(after.commands.has(command)).toBe(true);
    }
  });

  test('the stages refused at every version, and those a version adds', () => {
    const refusedEverywhere = ['$bucket', '$bucketAuto', '$collStats', '$currentOp', '$graphLookup', '$indexStats', '$listLocalSessions', '$listSessions'];
    for (const v of COSMOS_SERVER_VERSIONS) for (const stage of refusedEverywhere) expect(COSMOS_VERSIONS[v].stages.has(stage)).toBe(false);
    const added = (v: (typeof COSMOS_SERVER_VERSIONS)[number], before: (typeof COSMOS_SERVER_VERSIONS)[number]) =>
      [...COSMOS_VERSIONS[v].stages].filter((s) => !COSMOS_VERSIONS[before].stages.has(s)).sort();
    expect(added('5.0', '4.2')).toEqual(['$setWindowFields', '$unionWith']);
    expect(added('6.0', '5.0')).toEqual(['$densify', '$documents', '$fill']);
    expect(added('7.0', '6.0')).toEqual([]);
    expect(errorOf(() => cosmosCheckStages([{ $unionWith: 'x' }], COSMOS_VERSIONS['4.2']))).toEqual([40324, "Unrecognized pipeline stage name: '$unionWith'"]);
    expect(errorOf(() => cosmosCheckStages([{ $facet: { a: [{ $lookup: { from: 'x', pipeline: [{ $graphLookup: {} }], as: 'y' } }] } }], COSMOS_VERSIONS['7.0']))).toEqual([40324, "Unrecognized pipeline stage name: '$graphLookup'"]);
  });
});

describe('settings', () => {
  test('every rule is on by default; switches turn them off one by one', () => {
    const all = resolveCosmosSettings();
    expect(all.serverVersion).toBe('7.0');
    expect(RULE_NAMES.every((r) => all.rules[r])).toBe(true);
    const one = resolveCosmosSettings({ rules: { sortNeedsIndex: false }, capabilities: ['EnableTtlOnCustomPath'] });
    expect(RULE_NAMES.filter((r) => !one.rules[r])).toEqual(['sortNeedsIndex']);
    expect([...one.capabilities]).toEqual(['EnableTtlOnCustomPath']);
    expect(RULE_NAMES).toEqual(Object.keys(RULES).sort());
    expect(CAPABILITY_NAMES).toEqual(['AllVersionsAndDeletesChangeFeed', 'EnableMongo16MBDocumentSupport', 'EnableTtlOnCustomPath', 'EnableUniqueIndexReIndex']);
  });

  test('the option problems', () => {
    expect(cosmosOptionsProblem({})).toBeUndefined();
    expect(cosmosOptionsProblem({ serverVersion: '7.0', capabilities: [], rules: { replyTypes: true } })).toBeUndefined();
    expect(cosmosOptionsProblem([])).toBe("option 'cosmos' must be an object such as { serverVersion: '7.0', capabilities: ['EnableTtlOnCustomPath'], rules: { sortNeedsIndex: false } }, not an array");
    expect(cosmosOptionsProblem({ rules: [] })).toBe("option 'cosmos.rules' must be an object such as { sortNeedsIndex: false }, not an array");
  });
});

describe('rules as functions', () => {
  test('sort coverage', () => {
    expect(indexServesSort({ a: 1 }, { a: -1 })).toBe(true);
    expect(indexServesSort({ a: 1, b: -1 }, { a: -1, b: 1 })).toBe(true);
    expect(indexServesSort({ a: 1, b: -1 }, { a: 1, b: 1 })).toBe(false);
    expect(indexServesSort({ a: 1 }, { a: 1, b: 1 })).toBe(false);
    expect(indexServesSort({ a: new Int32(1), b: new Double(-1) }, { a: Long.fromNumber(1), b: -1 })).toBe(true);
    expect(indexServesSort({ a: 1 }, { a: 'hashed' })).toBe(false);
    expect(errorOf(() => cosmosCheckSort({ a: 1 }, [{ _id: 1 }]))).toEqual([2, 'The index path corresponding to the specified order-by item is excluded.']);
    expect(cosmosCheckSort({ _id: -1 }, [{ _id: 1 }])).toBeUndefined();
    expect(cosmosCheckSort({}, [{ _id: 1 }])).toBeUndefined();
  });

  test('transactions: 5 seconds, one collection', () => {
    const state = { startedAtMs: 1000, namespaces: new Set(['d.a']) };
    expect(cosmosCheckTransactionStatement(state, 'd.a', 6000)).toBeUndefined();
    expect(errorOf(() => cosmosCheckTransactionStatement(state, 'd.a', 6001))).toEqual([2, "Transaction isn't active"]);
    expect(errorOf(() => cosmosCheckTransactionStatement(state, 'd.b', 2000))).toEqual([2, "Transaction isn't active: a transaction on Azure Cosmos DB works on one collection; it already touched d.a, not d.b"]);
    expect(cosmosCheckTransactionStatement({ startedAtMs: 0, namespaces: new Set() }, 'd.b', 10)).toBeUndefined();
  });

  test('custom-path TTL instants', () => {
    expect(customPathInstantMs(new Date(5))).toBe(5);
    expect(customPathInstantMs(Long.fromNumber(7))).toBe(7);
    expect(customPathInstantMs(new Double(7.5))).toBe(7.5);
    expect(customPathInstantMs(NaN)).toBeUndefined();
    expect(customPathInstantMs('5')).toBeUndefined();
    expect(customPathInstantMs(null)).toBeUndefined();
  });
});
