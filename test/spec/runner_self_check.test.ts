/**
 * Checks of the unified runner itself: the matcher's rules, and that the runner fails tests
 * whose expectations are wrong (a runner that passes everything would make the spec suites
 * worthless). The spec's own valid-pass files only check the positive side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BSON, Decimal128, Double, Int32, Long, MongoClient } from 'mongodb';
import { MayflyServer } from '../../src/index.js';
import { exactMismatch, matchValue, MatchError, type MatchContext } from './matcher.js';
import { probeServer, runUnifiedTest, type RunnerEnvironment, type SpecFile, type SpecTest } from './unified_runner.js';

const { EJSON } = BSON;

const ctx: MatchContext = {
  entity: (name) => {
    if (name === 'saved') return { a: 1 };
    throw new Error(`no entity ${name}`);
  },
  sessionLsid: () => {
    throw new Error('no sessions here');
  },
};

function matches(expected: unknown, actual: unknown, isRoot = true): boolean {
  try {
    matchValue(expected, actual, ctx, '', isRoot);
    return true;
  } catch (err) {
    if (err instanceof MatchError) return false;
    throw err;
  }
}

describe('matcher', () => {
  it('allows extra fields in root documents only', () => {
    expect(matches({ x: 1 }, { x: 1, y: 2 })).toBe(true);
    expect(matches({ x: { y: 1 } }, { x: { y: 1, z: 1 } })).toBe(false);
    expect(matches({ x: 1, y: 1 }, { x: 1 })).toBe(false);
    expect(matches([{ x: 1 }], [{ x: 1, y: 2 }], true)).toBe(false);
  });

  it('compares int32, int64 and double numerically, Decimal128 apart', () => {
    expect(matches(1, new Double(1))).toBe(true);
    expect(matches(new Int32(5), Long.fromNumber(5))).toBe(true);
    expect(matches(1, 1.5)).toBe(false);
    expect(matches(1, Decimal128.fromString('1'))).toBe(false);
    expect(matches(Decimal128.fromString('1.0'), Decimal128.fromString('1.0'))).toBe(true);
    expect(matches('1', 1)).toBe(false);
  });

  it('requires arrays of the same length, element by element', () => {
    expect(matches([1, 2, 3], [1, 2, 3])).toBe(true);
    expect(matches([1, 2, 3], [1, 2, 3, 4])).toBe(false);
    expect(matches([1, 2], [2, 1])).toBe(false);
  });

  it('evaluates $$exists, $$unsetOrMatches and $$type', () => {
    expect(matches({ a: { $$exists: false } }, { b: 1 })).toBe(true);
    expect(matches({ a: { $$exists: false } }, { a: null })).toBe(false);
    expect(matches({ a: { $$exists: true } }, { a: null })).toBe(true);
    expect(matches({ a: { $$unsetOrMatches: 2 } }, {})).toBe(true);
    expect(matches({ a: { $$unsetOrMatches: 2 } }, { a: 3 })).toBe(false);
    expect(matches({ $$unsetOrMatches: { n: 1 } }, undefined)).toBe(true);
    expect(matches({ a: { $$type: 'double' } }, { a: new Double(1) })).toBe(true);
    expect(matches({ a: { $$type: 'int' } }, { a: new Double(1) })).toBe(false);
    expect(matches({ a: { $$type: ['int', 'long'] } }, { a: Long.fromNumber(1) })).toBe(true);
    expect(matches({ a: { $$type: 'number' } }, { a: Decimal128.fromString('2') })).toBe(true);
    expect(matches({ a: { $$type: 'string' } }, {})).toBe(false);
  });

  it('evaluates $$lte, $$matchesEntity, $$matchAsDocument and $$matchAsRoot', () => {
    expect(matches({ a: { $$lte: 2 } }, { a: 2.0 })).toBe(true);
    expect(matches({ a: { $$lte: 2 } }, { a: 2.1 })).toBe(false);
    expect(matches({ a: { $$matchesEntity: 'saved' } }, { a: { a: 1 } })).toBe(true);
    expect(matches({ a: { $$matchesEntity: 'saved' } }, { a: { a: 2 } })).toBe(false);
    expect(matches({ $$matchAsDocument: { x: 1 } }, '{"x": {"$numberLong": "1"}}')).toBe(true);
    expect(matches({ $$matchAsDocument: { x: 1 } }, '{"x": 1, "y": 2}')).toBe(false);
    expect(matches({ a: { $$matchAsRoot: { x: 1 } } }, { a: { x: 1, y: 2 } })).toBe(true);
  });

  it('compares outcome documents exactly, in any key order', () => {
    expect(exactMismatch({ _id: 1, x: 1 }, { x: 1, _id: 1 }, '')).toBeUndefined();
    expect(exactMismatch({ _id: 1 }, { _id: 1, x: 1 }, '')).toMatch(/keys differ/);
    expect(exactMismatch({ _id: 1, x: { y: [1, 2] } }, { _id: 1, x: { y: [1, 2, 3] } }, '')).toMatch(/x\.y/);
  });
});

describe('runner', () => {
  let server: MayflyServer;
  let internal: MongoClient;
  let env: RunnerEnvironment;
  beforeAll(async () => {
    server = await MayflyServer.create({ compat: 'mongodb' });
    internal = new MongoClient(server.getUri());
    await internal.connect();
    env = { uri: server.getUri(), internal, facts: await probeServer(internal) };
  });
  afterAll(async () => {
    await internal.close();
    await server.stop();
  });

  const file = (tests: unknown[], schemaVersion = '1.0'): SpecFile =>
    EJSON.parse(
      JSON.stringify({
        description: 'self-check',
        schemaVersion,
        createEntities: [
          { client: { id: 'client0', observeEvents: ['commandStartedEvent'] } },
          { database: { id: 'database0', client: 'client0', databaseName: 'selfcheck' } },
          { collection: { id: 'collection0', database: 'database0', collectionName: 'coll0' } },
        ],
        initialData: [{ collectionName: 'coll0', databaseName: 'selfcheck', documents: [{ _id: 1, x: 11 }, { _id: 2, x: 22 }] }],
        tests,
      }),
      { relaxed: false },
    ) as unknown as SpecFile;
  const run = (f: SpecFile): Promise<void> => runUnifiedTest(f, f.tests[0] as SpecTest, env);
  const find = { name: 'find', object: 'collection0', arguments: { filter: { _id: { $gt: 1 } } } };

  it('passes a correct test (results, events, outcome)', async () => {
    await run(
      file([
        {
          description: 'ok',
          operations: [{ ...find, expectResult: [{ _id: 2, x: 22 }] }],
          expectEvents: [{ client: 'client0', events: [{ commandStartedEvent: { commandName: 'find', command: { find: 'coll0', filter: { _id: { $gt: 1 } } } } }] }],
          outcome: [{ collectionName: 'coll0', databaseName: 'selfcheck', documents: [{ _id: 1, x: 11 }, { _id: 2, x: 22 }] }],
        },
      ]),
    );
  });

  it('fails a wrong expectResult', async () => {
    await expect(run(file([{ description: 'bad', operations: [{ ...find, expectResult: [{ _id: 2, x: 23 }] }] }]))).rejects.toThrow(
      /operation find on collection0: result does not match: \[0\]\.x: expected 23, got 22/,
    );
  });

  it('fails a result with an extra document', async () => {
    const all = { name: 'find', object: 'collection0', arguments: { filter: {} }, expectResult: [{ _id: 1 }] };
    await expect(run(file([{ description: 'bad', operations: [all] }]))).rejects.toThrow(/expected 1 document\(s\), got 2/);
  });

  it('fails a wrong outcome', async () => {
    const f = file([
      {
        description: 'bad',
        operations: [{ name: 'deleteOne', object: 'collection0', arguments: { filter: { _id: 1 } }, expectResult: { deletedCount: 1 } }],
        outcome: [{ collectionName: 'coll0', databaseName: 'selfcheck', documents: [{ _id: 1, x: 11 }, { _id: 2, x: 22 }] }],
      },
    ]);
    await expect(run(f)).rejects.toThrow(/outcome selfcheck\.coll0: expected 2 document\(s\), found 1/);
  });

  it('fails wrong or missing events', async () => {
    const wrongName = file([
      { description: 'bad', operations: [find], expectEvents: [{ client: 'client0', events: [{ commandStartedEvent: { commandName: 'aggregate' } }] }] },
    ]);
    await expect(run(wrongName)).rejects.toThrow(/commandName is find, expected aggregate/);
    const none = file([{ description: 'bad', operations: [find], expectEvents: [{ client: 'client0', events: [] }] }]);
    await expect(run(none)).rejects.toThrow(/expected 0 event\(s\), observed 1/);
  });

  it('fails an expected error that does not happen, and a wrong error code', async () => {
    await expect(run(file([{ description: 'bad', operations: [{ ...find, expectError: { isError: true } }] }]))).rejects.toThrow(/expected an error/);
    const badFilter = { name: 'find', object: 'collection0', arguments: { filter: { $bad: 1 } }, expectError: { errorCode: 3 } };
    await expect(run(file([{ description: 'bad', operations: [badFilter] }]))).rejects.toThrow(/expected error code 3; the error was MongoServerError BadValue\(2\)/);
    const right = { ...badFilter, expectError: { errorCode: 2, errorCodeName: 'BadValue', isClientError: false, errorContains: 'unknown top level operator' } };
    await run(file([{ description: 'ok', operations: [right] }]));
  });

  it('raises an error for unsupported operations and schema versions', async () => {
    await expect(run(file([{ description: 'bad', operations: [{ name: 'frobnicate', object: 'collection0' }] }]))).rejects.toThrow(
      /unsupported collection operation frobnicate/,
    );
    await expect(run(file([{ description: 'bad', operations: [] }], '2.0'))).rejects.toThrow(/schemaVersion 2.0 is not supported/);
  });
});
