/**
 * `configureFailPoint` and the `failCommand` fail point, through the official driver: every
 * mode, every data option, the exact errors and labels, `closeConnection` seen by the driver as
 * a network error, `blockConnection` as a delay (and a socket timeout), `writeConcernError`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Double, Int32, MongoClient, type Db, type Document, type MongoClientOptions } from 'mongodb';
import { performance } from 'node:perf_hooks';
import { MayflyServer } from '../../src/index.js';
import { startHarness, errorOf, type Harness, type TestClient, type TestDb } from './harness.js';

let h: Harness;
let db: TestDb;
let admin: Db;
const extraClients: MongoClient[] = [];

/**
 * A 91 ShutdownInProgress (errorCode or writeConcernError) marks the server Unknown in the
 * driver. A streaming monitor (hello with topologyVersion, as against mongod 4.4+) would only
 * hear again at its next heartbeat, 10 s later; the polling monitor checks at once, so the
 * following commands find the server.
 */
const MONITORING: MongoClientOptions = { serverMonitoringMode: 'poll' };

beforeAll(async () => {
  h = await startHarness({}, MONITORING);
  db = h.db;
  admin = h.client.db('admin');
  await db.collection('c').insertMany([{ _id: 1 }, { _id: 2 }]);
});
afterEach(async () => {
  await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
  for (const client of extraClients.splice(0)) await client.close();
});
afterAll(async () => {
  await h.close();
});

/** Configures failCommand; returns the reply. */
function failCommand(mode: unknown, data?: Document): Promise<Document> {
  return admin.command({ configureFailPoint: 'failCommand', mode, ...(data === undefined ? {} : { data }) });
}

/** How many times failCommand has fired (the `count` a configureFailPoint replies with). */
async function timesEntered(): Promise<number> {
  const reply = await admin.command({ configureFailPoint: 'failCommand', mode: 'off' });
  return reply.count as number;
}

/** Another client of the same server (closed after the test). */
async function connect(options: MongoClientOptions = {}): Promise<TestClient> {
  const client: TestClient = new MongoClient(h.server.getUri(), { serverSelectionTimeoutMS: 5000, ...MONITORING, ...options });
  extraClients.push(client);
  await client.connect();
  return client;
}

const FAILPOINT_MESSAGE = "Failing command via 'failCommand' failpoint";

/** What a failed command reply carries. */
function failure(err: Awaited<ReturnType<typeof errorOf>>): unknown[] {
  return [err.code, err.codeName, err.errmsg];
}

describe('configureFailPoint', () => {
  it('replies with how many times the fail point fired so far, as an Int32', async () => {
    const before = await timesEntered();
    await failCommand('alwaysOn', { failCommands: ['ping'], errorCode: 2 });
    await errorOf(() => db.command({ ping: 1 }));
    await errorOf(() => db.command({ ping: 1 }));
    const reply = await admin.command({ configureFailPoint: 'failCommand', mode: 'off' }, { promoteValues: false });
    expect(reply).toEqual({ count: new Int32(before + 2), ok: new Double(1) });
  });

  it('only runs on the admin database', async () => {
    const err = await errorOf(() => db.command({ configureFailPoint: 'failCommand', mode: 'off' }));
    expect(failure(err)).toEqual([13, 'Unauthorized', 'configureFailPoint may only be run against the admin database.']);
  });

  it('refuses fail points Mayfly does not have with 266 FailPointSetFailed', async () => {
    const err = await errorOf(() => admin.command({ configureFailPoint: 'maxTimeAlwaysTimeOut', mode: 'alwaysOn' }));
    expect(failure(err)).toEqual([266, 'FailPointSetFailed', 'maxTimeAlwaysTimeOut not found']);
    const notString = await errorOf(() => admin.command({ configureFailPoint: 1, mode: 'off' }));
    expect(failure(notString)).toEqual([266, 'FailPointSetFailed', ' not found']);
  });

  const modeErrors: Array<[string, Document, number, string, string]> = [
    ['no mode', {}, 20, 'IllegalOperation', "When setting a failpoint, you must supply a 'mode'"],
    ['an unknown mode', { mode: 'sometimes' }, 2, 'BadValue', 'unknown mode: sometimes'],
    ['a number as mode', { mode: 1 }, 14, 'TypeMismatch', "'mode' must be a string or JSON object"],
    ['an empty mode object', { mode: {} }, 2, 'BadValue', "'mode' must be one of 'off', 'alwaysOn', '{times:n}', '{skip:n}' or '{activationProbability:p}'"],
    ['an unknown mode field', { mode: { often: 1 } }, 2, 'BadValue', "'mode' must be one of 'off', 'alwaysOn', '{times:n}', '{skip:n}' or '{activationProbability:p}'"],
    ['negative times', { mode: { times: -1 } }, 2, 'BadValue', "'times' option to 'mode' must be positive"],
    ['times beyond Int32', { mode: { times: 2147483648 } }, 2, 'BadValue', "'times' option to 'mode' is too large"],
    ['string times', { mode: { times: 'x' } }, 14, 'TypeMismatch', 'Expected field "times" to have numeric type, but found string'],
    ['fractional times', { mode: { times: 1.5 } }, 2, 'BadValue', 'Expected field "times" to have a value exactly representable as a 64-bit integer, but found times: 1.5'],
    ['negative skip', { mode: { skip: -2 } }, 2, 'BadValue', "'skip' option to 'mode' must be positive"],
    ['a string probability', { mode: { activationProbability: 'x' } }, 14, 'TypeMismatch', "the 'activationProbability' option to 'mode' must be a double between 0 and 1"],
    ['a probability above 1', { mode: { activationProbability: 1.5 } }, 2, 'BadValue', 'activationProbability must be between 0.0 and 1.0; found 1.5'],
    ['data that is not an object', { mode: 'alwaysOn', data: 'x' }, 14, 'TypeMismatch', "the 'data' option must be a JSON object"],
  ];
  for (const [name, fields, code, codeName, message] of modeErrors) {
    it(`refuses ${name}`, async () => {
      const err = await errorOf(() => admin.command({ configureFailPoint: 'failCommand', ...fields }));
      expect(failure(err)).toEqual([code, codeName, message]);
    });
  }

  it('a refused configuration leaves the fail point as it was', async () => {
    await failCommand({ times: 1 }, { failCommands: ['ping'], errorCode: 2 });
    await errorOf(() => admin.command({ configureFailPoint: 'failCommand', mode: { times: -1 } }));
    expect((await errorOf(() => db.command({ ping: 1 }))).code).toBe(2);
  });

  it('is never failed itself, even by failAllCommands', async () => {
    await failCommand('alwaysOn', { failAllCommands: true, failCommands: ['configureFailPoint'], errorCode: 2 });
    expect(failure(await errorOf(() => db.command({ ping: 1 })))).toEqual([2, 'BadValue', FAILPOINT_MESSAGE]);
    expect(await admin.command({ configureFailPoint: 'failCommand', mode: 'off' })).toMatchObject({ ok: 1 });
    expect(await db.command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('fail points belong to one server', async () => {
    const other = await MayflyServer.create();
    const client = new MongoClient(other.getUri());
    try {
      await failCommand('alwaysOn', { failCommands: ['ping'], errorCode: 2 });
      expect(await client.db('x').command({ ping: 1 })).toEqual({ ok: 1 });
      expect((await errorOf(() => db.command({ ping: 1 }))).code).toBe(2);
    } finally {
      await client.close();
      await other.stop();
    }
  });
});

describe('failCommand modes', () => {
  it('alwaysOn fails every time until off', async () => {
    await failCommand('alwaysOn', { failCommands: ['count'], errorCode: 8 });
    for (let i = 0; i < 3; i++) {
      expect(failure(await errorOf(() => db.command({ count: 'c' })))).toEqual([8, 'UnknownError', FAILPOINT_MESSAGE]);
    }
    await failCommand('off');
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
  });

  it('{times: n} fails n times, then lets commands through', async () => {
    const before = await timesEntered();
    await failCommand({ times: 2 }, { failCommands: ['count'], errorCode: 8 });
    expect((await errorOf(() => db.command({ count: 'c' }))).code).toBe(8);
    expect((await errorOf(() => db.command({ count: 'c' }))).code).toBe(8);
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(await timesEntered()).toBe(before + 2);
  });

  it('{skip: n} lets n commands through, then fails every time', async () => {
    await failCommand({ skip: 2 }, { failCommands: ['count'], errorCode: 8 });
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect((await errorOf(() => db.command({ count: 'c' }))).code).toBe(8);
    expect((await errorOf(() => db.command({ count: 'c' }))).code).toBe(8);
  });

  it('commands it does not apply to do not count against times', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], errorCode: 8 });
    expect(await db.command({ ping: 1 })).toEqual({ ok: 1 });
    expect((await errorOf(() => db.command({ count: 'c' }))).code).toBe(8);
  });

  it('{activationProbability: 0} never fires, 1 always does', async () => {
    const before = await timesEntered();
    await failCommand({ activationProbability: 0 }, { failCommands: ['count'], errorCode: 8 });
    for (let i = 0; i < 20; i++) expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(await timesEntered()).toBe(before);
    await failCommand({ activationProbability: 1 }, { failCommands: ['count'], errorCode: 8 });
    for (let i = 0; i < 5; i++) expect((await errorOf(() => db.command({ count: 'c' }))).code).toBe(8);
  });
});

describe('failCommand data', () => {
  it('errorCode fails the listed commands only, with the code name', async () => {
    await failCommand('alwaysOn', { failCommands: ['insert', 'delete'], errorCode: 91 });
    expect(await db.collection('c').countDocuments()).toBe(2);
    const err = await errorOf(() => db.command({ delete: 'c', deletes: [{ q: { _id: 1 }, limit: 1 }] }));
    expect(failure(err)).toEqual([91, 'ShutdownInProgress', FAILPOINT_MESSAGE]);
    expect(await db.collection('c').countDocuments()).toBe(2);
  });

  it('a code without a name is Location<code>', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], errorCode: 12345 });
    expect(failure(await errorOf(() => db.command({ count: 'c' })))).toEqual([12345, 'Location12345', FAILPOINT_MESSAGE]);
  });

  it('errorCode 0 fires (and counts) but fails nothing', async () => {
    const before = await timesEntered();
    await failCommand({ times: 1 }, { failCommands: ['count'], errorCode: 0 });
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(await timesEntered()).toBe(before + 1);
  });

  it('a command matches by any of its names', async () => {
    await failCommand('alwaysOn', { failCommands: ['findandmodify'], errorCode: 8 });
    const err = await errorOf(() => db.collection('c').findOneAndUpdate({ _id: 1 }, { $set: { a: 1 } }));
    expect(failure(err)).toEqual([8, 'UnknownError', FAILPOINT_MESSAGE]);
  });

  it('errorLabels are the error labels of the reply', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], errorCode: 8, errorLabels: ['RetryableWriteError', 'Mine'] });
    const err = await errorOf(() => db.command({ count: 'c' }));
    expect(err).toMatchObject({ ok: 0, code: 8, codeName: 'UnknownError', errmsg: FAILPOINT_MESSAGE, errorLabels: ['RetryableWriteError', 'Mine'] });
  });

  it('errorLabels replace the labels of whatever error the command ends with', async () => {
    await failCommand({ times: 1 }, { failCommands: ['find'], blockConnection: true, blockTimeMS: 0, errorLabels: ['Mine'] });
    const err = await errorOf(() => db.command({ find: 'c', filter: { $bad: 1 } }));
    expect(err).toMatchObject({ code: 2, codeName: 'BadValue', errmsg: "unknown top level operator: $bad. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.", errorLabels: ['Mine'] });
  });

  it('errorExtraInfo adds the fields its code carries (errInfo of 121)', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], errorCode: 121, errorExtraInfo: { errInfo: { why: 'test' }, other: 1 } });
    const err = await errorOf(() => db.command({ count: 'c' }));
    expect(err).toMatchObject({ code: 121, codeName: 'DocumentValidationFailure', errmsg: FAILPOINT_MESSAGE, errInfo: { why: 'test' } });
    expect(err.other).toBe(undefined);
  });

  it('errorExtraInfo must be an object', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], errorCode: 8, errorExtraInfo: 'x' });
    const err = await errorOf(() => db.command({ count: 'c' }));
    expect(failure(err)).toEqual([14, 'TypeMismatch', '"errorExtraInfo" had the wrong type. Expected object, found string']);
  });

  it('appName: only clients with that application name', async () => {
    await failCommand('alwaysOn', { failCommands: ['count'], errorCode: 8, appName: 'fp-app' });
    const app = await connect({ appName: 'fp-app' });
    const otherApp = await connect({ appName: 'other' });
    expect((await errorOf(() => app.db(db.databaseName).command({ count: 'c' }))).code).toBe(8);
    expect(await otherApp.db(db.databaseName).command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
  });

  it('hello can be failed for one application, so its handshake fails', async () => {
    await failCommand('alwaysOn', { failCommands: ['hello', 'isMaster'], errorCode: 8, appName: 'no-handshake' });
    const client = new MongoClient(h.server.getUri(), { appName: 'no-handshake', serverSelectionTimeoutMS: 300 });
    extraClients.push(client);
    const err = await errorOf(() => client.connect());
    expect(err.message).toContain(FAILPOINT_MESSAGE);
    expect(await db.command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('namespace: only commands on that namespace', async () => {
    await db.collection('other').insertOne({ _id: 1 });
    await failCommand('alwaysOn', { failCommands: ['find'], errorCode: 8, namespace: `${db.databaseName}.other` });
    expect((await errorOf(() => db.collection('other').find().toArray())).code).toBe(8);
    expect(await db.collection('c').find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it('threadName: only the connection called conn<id>', async () => {
    const single = await connect({ maxPoolSize: 1 });
    const hello = await single.db('admin').command({ hello: 1 });
    await failCommand('alwaysOn', { failCommands: ['count'], errorCode: 8, threadName: `conn${hello.connectionId as number}` });
    expect((await errorOf(() => single.db(db.databaseName).command({ count: 'c' }))).code).toBe(8);
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
  });

  it('failAllCommands fails every command', async () => {
    await failCommand({ times: 2 }, { failAllCommands: true, errorCode: 8 });
    expect((await errorOf(() => db.command({ ping: 1 }))).code).toBe(8);
    expect((await errorOf(() => db.command({ buildInfo: 1 }))).code).toBe(8);
  });

  it('failInternalCommands is accepted (Mayfly has no internal clients)', async () => {
    await failCommand({ times: 1 }, { failCommands: ['ping'], errorCode: 8, failInternalCommands: true });
    expect((await errorOf(() => db.command({ ping: 1 }))).code).toBe(8);
  });

  it('data without errorCode, closeConnection or blockConnection does not fire before the command', async () => {
    const before = await timesEntered();
    await failCommand('alwaysOn', { failCommands: ['count'], errorLabels: ['X'] });
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(await timesEntered()).toBe(before);
  });
});

/** The error `fn` rejects with (its class name and message). */
async function thrown(fn: () => Promise<unknown>): Promise<{ name: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    return { name: (e as Error).name, message: (e as Error).message };
  }
  throw new Error('expected an error, got success');
}

describe('closeConnection', () => {
  it('closes the connection without a reply: the driver sees a network error; the next command works', async () => {
    const client = await connect({ retryReads: false });
    const coll = client.db(db.databaseName).collection('c');
    await failCommand({ times: 1 }, { failCommands: ['find'], closeConnection: true });
    const err = await thrown(() => coll.find().toArray());
    expect(err.name).toBe('MongoNetworkError');
    expect(err.message).toMatch(/closed/);
    expect(await coll.find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it('a retryable read is retried on a new connection', async () => {
    const retrying = await connect({ monitorCommands: true });
    const started: string[] = [];
    retrying.on('commandStarted', (e) => started.push(e.commandName));
    await failCommand({ times: 1 }, { failCommands: ['find'], closeConnection: true });
    expect(await retrying.db(db.databaseName).collection('c').findOne({ _id: 2 })).toEqual({ _id: 2 });
    expect(started.filter((n) => n === 'find')).toEqual(['find', 'find']);
  });

  it('the command does not run', async () => {
    const client = await connect({ retryWrites: false });
    await failCommand({ times: 1 }, { failCommands: ['insert'], closeConnection: true });
    const err = await thrown(() => client.db(db.databaseName).collection('c').insertOne({ _id: 99 }));
    expect(err.name).toBe('MongoNetworkError');
    expect(await db.collection('c').countDocuments({ _id: 99 })).toBe(0);
  });
});

describe('blockConnection', () => {
  it('delays the command by blockTimeMS, then runs it', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], blockConnection: true, blockTimeMS: 150 });
    const start = performance.now();
    expect(await db.command({ count: 'c' })).toEqual({ n: 2, ok: 1 });
    expect(performance.now() - start).toBeGreaterThanOrEqual(140);
  });

  it('then fails it when errorCode is given too', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], blockConnection: true, blockTimeMS: 50, errorCode: 8 });
    const start = performance.now();
    expect(failure(await errorOf(() => db.command({ count: 'c' })))).toEqual([8, 'UnknownError', FAILPOINT_MESSAGE]);
    expect(performance.now() - start).toBeGreaterThanOrEqual(45);
  });

  it('longer than socketTimeoutMS is a network timeout for the driver', async () => {
    const client = await connect({ socketTimeoutMS: 50, retryReads: false });
    await failCommand({ times: 1 }, { failCommands: ['find'], blockConnection: true, blockTimeMS: 300 });
    expect((await thrown(() => client.db(db.databaseName).collection('c').findOne({}))).name).toBe('MongoNetworkTimeoutError');
  });

  it('requires a non-negative integer blockTimeMS (checked when it fires)', async () => {
    await failCommand({ times: 1 }, { failCommands: ['count'], blockConnection: true });
    expect(failure(await errorOf(() => db.command({ count: 'c' })))).toEqual([72, 'InvalidOptions', "must specify 'blockTimeMS' when 'blockConnection' is true"]);
    await failCommand({ times: 1 }, { failCommands: ['count'], blockConnection: true, blockTimeMS: -1 });
    expect(failure(await errorOf(() => db.command({ count: 'c' })))).toEqual([72, 'InvalidOptions', "'blockTimeMS' must be non-negative"]);
  });
});

describe('writeConcernError', () => {
  const WCE = { code: 91, errmsg: 'Replication is being shut down' };

  it('is added to the reply of a write, which still happens', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], writeConcernError: WCE });
    const err = await errorOf(() => db.command({ insert: 'c', documents: [{ _id: 10 }] }));
    expect(err).toMatchObject({ n: 1, writeConcernError: WCE, ok: 1 });
    expect(err.errorLabels).toBe(undefined);
    expect(await db.collection('c').countDocuments({ _id: 10 })).toBe(1);
  });

  it('carries the errorLabels of the data', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], writeConcernError: WCE, errorLabels: ['RetryableWriteError'] });
    const err = await errorOf(() => db.command({ insert: 'c', documents: [{ _id: 11 }] }));
    expect(err).toMatchObject({ n: 1, writeConcernError: WCE, errorLabels: ['RetryableWriteError'], ok: 1 });
  });

  it('the driver reports it as a MongoWriteConcernError', async () => {
    await failCommand({ times: 1 }, { failCommands: ['insert'], writeConcernError: WCE });
    const err = await thrown(() => db.collection('c').insertOne({ _id: 12 }));
    expect(err).toEqual({ name: 'MongoWriteConcernError', message: WCE.errmsg });
  });

  it('is not added to commands without a write concern', async () => {
    const before = await timesEntered();
    await failCommand('alwaysOn', { failCommands: ['find', 'count'], writeConcernError: WCE });
    expect(await db.command({ count: 'c' })).toMatchObject({ ok: 1 });
    expect(await timesEntered()).toBe(before);
  });
});
