/**
 * Authentication through the official driver: credentials in the URI, both SCRAM mechanisms,
 * authSource, mechanism negotiation and speculative authentication in hello, and mongod's
 * answers to everything that goes wrong (18 for a wrong user or password alike, 17 for a
 * conversation that is not under way, 2 for an unknown mechanism, 13 without a user).
 * The raw SASL cases speak SCRAM by hand over a client of one connection.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { Binary, MongoClient, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MayflyServer } from '../../src/index.js';

let server: MayflyServer;
let admin: MongoClient;
const hostPort = () => `127.0.0.1:${server.port}`;

beforeAll(async () => {
  server = await MayflyServer.create({ auth: { username: 'root', password: 'example' } });
  admin = new MongoClient(`mongodb://root:example@${hostPort()}/`, { serverSelectionTimeoutMS: 5000 });
  await admin.connect();
  await admin.db('shop').command({ createUser: 'clerk', pwd: 'p@ss w0rd', roles: ['readWrite'] });
  await admin.db('shop').command({ createUser: 'old', pwd: 'sha1only', roles: ['read'], mechanisms: ['SCRAM-SHA-1'] });
});
afterAll(async () => {
  await admin.close();
  await server.stop();
});

/** Connects with `uri`, runs `body`, closes. */
async function withClient<T>(uri: string, body: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, maxPoolSize: 1 });
  try {
    await client.connect();
    return await body(client);
  } finally {
    await client.close();
  }
}

describe('the driver authenticates', () => {
  test.each(['', '&authMechanism=SCRAM-SHA-256', '&authMechanism=SCRAM-SHA-1'])('root with credentials in the URI %s', async (mech) => {
    const status = await withClient(`mongodb://root:example@${hostPort()}/?authSource=admin${mech}`, async (c) => {
      await c.db('t').collection('c').insertOne({ _id: mech as never });
      return c.db('t').command({ connectionStatus: 1 });
    });
    expect(status).toEqual({ authInfo: { authenticatedUsers: [{ user: 'root', db: 'admin' }], authenticatedUserRoles: [{ role: 'root', db: 'admin' }] }, uuid: status.uuid, ok: 1 });
  });

  test('authSource is the database of the path, or the authSource option', async () => {
    const viaPath = await withClient(`mongodb://clerk:${encodeURIComponent('p@ss w0rd')}@${hostPort()}/shop`, (c) => c.db('shop').command({ connectionStatus: 1 }));
    expect(viaPath.authInfo.authenticatedUsers).toEqual([{ user: 'clerk', db: 'shop' }]);
    const viaOption = await withClient(`mongodb://clerk:${encodeURIComponent('p@ss w0rd')}@${hostPort()}/other?authSource=shop&authMechanism=SCRAM-SHA-1`, (c) =>
      c.db('shop').command({ connectionStatus: 1, showPrivileges: true }),
    );
    expect(viaOption.authInfo.authenticatedUserRoles).toEqual([{ role: 'readWrite', db: 'shop' }]);
    expect(viaOption.authInfo.authenticatedUserPrivileges[0].resource).toEqual({ db: 'shop', collection: '' });
  });

  test('a user with only SCRAM-SHA-1 credentials: hello offers SCRAM-SHA-1 and the driver uses it', async () => {
    const hello = await admin.db('admin').command({ hello: 1, saslSupportedMechs: 'shop.old' });
    expect(hello.saslSupportedMechs).toEqual(['SCRAM-SHA-1']);
    const rootHello = await admin.db('admin').command({ hello: 1, saslSupportedMechs: 'admin.root' });
    expect(rootHello.saslSupportedMechs).toEqual(['SCRAM-SHA-1', 'SCRAM-SHA-256']);
    const unknown = await admin.db('admin').command({ hello: 1, saslSupportedMechs: 'admin.nobody' });
    expect(unknown.saslSupportedMechs).toBeUndefined();
    const asObject = await admin.db('admin').command({ hello: 1, saslSupportedMechs: { user: 'old', db: 'shop' } });
    expect(asObject.saslSupportedMechs).toEqual(['SCRAM-SHA-1']);
    await expect(admin.db('admin').command({ hello: 1, saslSupportedMechs: 'nodot' })).rejects.toMatchObject({ code: 2, message: "UserName must contain a '.' separated database.user pair" });
    await expect(admin.db('admin').command({ hello: 1, saslSupportedMechs: 7 })).rejects.toMatchObject({
      code: 14,
      message: "BSON field 'hello.saslSupportedMechs' is the wrong type 'int', expected types '[string, object']",
    });
    await expect(admin.db('admin').command({ hello: 1, saslSupportedMechs: { db: 'admin' } })).rejects.toMatchObject({ code: 2, message: 'UserName must contain a string field named: user' });
    const count = await withClient(`mongodb://old:sha1only@${hostPort()}/shop`, (c) => c.db('shop').collection('c').countDocuments());
    expect(count).toBe(0);
    await expect(withClient(`mongodb://old:sha1only@${hostPort()}/shop?authMechanism=SCRAM-SHA-256`, (c) => c.db('shop').command({ ping: 1 }))).rejects.toMatchObject({
      code: 18,
      message: 'Authentication failed.',
    });
  });

  test('a wrong password and an unknown user get the same 18', async () => {
    for (const uri of [`mongodb://root:wrong@${hostPort()}/`, `mongodb://nobody:example@${hostPort()}/`, `mongodb://root:example@${hostPort()}/?authSource=shop`]) {
      await expect(withClient(uri, (c) => c.db('admin').command({ ping: 1 }))).rejects.toMatchObject({ code: 18, codeName: 'AuthenticationFailed', message: 'Authentication failed.' });
    }
  });

  test('without a user every command but the handshake set answers 13', async () => {
    await withClient(`mongodb://${hostPort()}/`, async (c) => {
      expect(await c.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
      expect((await c.db('admin').command({ buildInfo: 1 })).ok).toBe(1);
      expect((await c.db('admin').command({ connectionStatus: 1, showPrivileges: 1 })).authInfo).toEqual({ authenticatedUsers: [], authenticatedUserRoles: [], authenticatedUserPrivileges: [] });
      await expect(c.db('shop').collection('c').findOne()).rejects.toMatchObject({ code: 13, codeName: 'Unauthorized', message: 'Command find requires authentication' });
      await expect(c.db('shop').command({ listCollections: 1 })).rejects.toMatchObject({ code: 13, message: 'Command listCollections requires authentication' });
      await expect(c.db('admin').command({ createUser: 'x', pwd: 'y', roles: [] })).rejects.toMatchObject({ code: 13, message: 'Command createUser requires authentication' });
    });
  });

  test('logout forgets the user', async () => {
    await withClient(`mongodb://root:example@${hostPort()}/`, async (c) => {
      expect(await c.db('admin').command({ logout: 1 })).toEqual({ ok: 1 });
      await expect(c.db('admin').command({ listDatabases: 1 })).rejects.toMatchObject({ code: 13, message: 'Command listDatabases requires authentication' });
    });
  });

  test('authenticate with a SCRAM mechanism answers 18, as mongod', async () => {
    await expect(admin.db('admin').command({ authenticate: 1, mechanism: 'SCRAM-SHA-256', user: 'root' })).rejects.toMatchObject({ code: 18, message: 'Authentication failed.' });
  });
});

/** The client side of SCRAM, by hand. */
function clientKeys(mech: 'SCRAM-SHA-1' | 'SCRAM-SHA-256', user: string, password: string, salt: Buffer, iterations: number) {
  const algo = mech === 'SCRAM-SHA-1' ? 'sha1' : 'sha256';
  const pwd = mech === 'SCRAM-SHA-1' ? createHash('md5').update(`${user}:mongo:${password}`).digest('hex') : password;
  const salted = pbkdf2Sync(pwd, salt, iterations, algo === 'sha1' ? 20 : 32, algo);
  const clientKey = createHmac(algo, salted).update('Client Key').digest();
  return { algo, clientKey, storedKey: createHash(algo).update(clientKey).digest(), serverKey: createHmac(algo, salted).update('Server Key').digest() };
}

function parse(payload: Binary): Record<string, string> {
  return Object.fromEntries(Buffer.from(payload.buffer).toString('utf8').split(',').map((kv) => [kv[0], kv.slice(2)]));
}

/** A client of one unauthenticated connection, for raw SASL commands. */
async function rawSasl(body: (run: (cmd: Document) => Promise<Document>) => Promise<void>): Promise<void> {
  await withClient(`mongodb://${hostPort()}/`, (c) => body((cmd) => c.db('admin').command(cmd)));
}

function clientFinal(mech: 'SCRAM-SHA-1' | 'SCRAM-SHA-256', user: string, password: string, bare: string, serverFirst: Binary, nonceOverride?: string) {
  const sf = parse(serverFirst);
  const keys = clientKeys(mech, user, password, Buffer.from(sf.s!, 'base64'), Number(sf.i));
  const withoutProof = `c=biws,r=${nonceOverride ?? sf.r}`;
  const authMessage = `${bare},${Buffer.from(serverFirst.buffer).toString('utf8')},${withoutProof}`;
  const signature = createHmac(keys.algo, keys.storedKey).update(authMessage).digest();
  const proof = Buffer.from(keys.clientKey.map((b, i) => b ^ signature[i]!));
  const expectedV = createHmac(keys.algo, keys.serverKey).update(authMessage).digest('base64');
  return { message: `${withoutProof},p=${proof.toString('base64')}`, expectedV };
}

describe('SASL by hand', () => {
  const nonce = () => randomBytes(18).toString('base64');

  test('a full SCRAM-SHA-256 conversation without skipEmptyExchange, then a replay', async () => {
    await rawSasl(async (run) => {
      const bare = `n=root,r=${nonce()}`;
      const start = await run({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: new Binary(Buffer.from(`n,,${bare}`)) });
      expect(start.conversationId).toBe(1);
      expect(start.done).toBe(false);
      const sf = parse(start.payload);
      expect(sf.i).toBe('15000');
      expect(Buffer.from(sf.s!, 'base64').length).toBe(28);
      const final = clientFinal('SCRAM-SHA-256', 'root', 'example', bare, start.payload);
      const step2 = await run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.from(final.message)) });
      expect(step2.done).toBe(false);
      expect(Buffer.from(step2.payload.buffer).toString()).toBe(`v=${final.expectedV}`);
      const step3 = await run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.alloc(0)) });
      expect(step3).toMatchObject({ conversationId: 1, done: true, ok: 1 });
      expect((await run({ connectionStatus: 1 })).authInfo.authenticatedUsers).toEqual([{ user: 'root', db: 'admin' }]);
      await expect(run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.from(final.message)) })).rejects.toMatchObject({
        code: 17,
        codeName: 'ProtocolError',
        message: 'No SASL session state found',
      });
    });
  });

  test('skipEmptyExchange finishes with the server signature; a base64 string payload is answered in kind', async () => {
    await rawSasl(async (run) => {
      const bare = `n=root,r=${nonce()}`;
      const start = await run({ saslStart: 1, mechanism: 'SCRAM-SHA-1', payload: Buffer.from(`n,,${bare}`).toString('base64'), options: { skipEmptyExchange: true } });
      expect(typeof start.payload).toBe('string');
      const serverFirst = new Binary(Buffer.from(start.payload, 'base64'));
      expect(parse(serverFirst).i).toBe('10000');
      const final = clientFinal('SCRAM-SHA-1', 'root', 'example', bare, serverFirst);
      const step2 = await run({ saslContinue: 1, conversationId: 1, payload: Buffer.from(final.message).toString('base64') });
      expect(step2).toEqual({ conversationId: 1, done: true, payload: Buffer.from(`v=${final.expectedV}`).toString('base64'), ok: 1 });
    });
  });

  test('an unknown user gets a salt and iteration count like a real one, the same each time, and fails at the proof', async () => {
    await rawSasl(async (run) => {
      const salts: string[] = [];
      for (let i = 0; i < 2; i++) {
        const bare = `n=ghost,r=${nonce()}`;
        const start = await run({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: new Binary(Buffer.from(`n,,${bare}`)) });
        const sf = parse(start.payload);
        expect(start.done).toBe(false);
        expect(sf.i).toBe('15000');
        expect(Buffer.from(sf.s!, 'base64').length).toBe(28);
        salts.push(sf.s!);
        const final = clientFinal('SCRAM-SHA-256', 'ghost', 'example', bare, start.payload);
        await expect(run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.from(final.message)) })).rejects.toMatchObject({ code: 18, message: 'Authentication failed.' });
      }
      expect(salts[0]).toBe(salts[1]);
    });
  });

  test.each([
    ['a wrong nonce', (bare: string, sf: Binary) => clientFinal('SCRAM-SHA-256', 'root', 'example', bare, sf, 'not-the-nonce').message],
    ['a wrong password', (bare: string, sf: Binary) => clientFinal('SCRAM-SHA-256', 'root', 'wrong', bare, sf).message],
    ['garbage', () => '\u0000\u00ff garbage'],
    ['an empty message', () => ''],
  ])('%s in the final message answers 18 and ends the conversation', async (_name, make) => {
    await rawSasl(async (run) => {
      const bare = `n=root,r=${nonce()}`;
      const start = await run({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: new Binary(Buffer.from(`n,,${bare}`)) });
      await expect(run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.from(make(bare, start.payload), 'latin1')) })).rejects.toMatchObject({
        code: 18,
        message: 'Authentication failed.',
      });
      await expect(run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.alloc(0)) })).rejects.toMatchObject({ code: 17, message: 'No SASL session state found' });
    });
  });

  test('malformed first messages, an over-long name, unknown mechanisms, a wrong conversationId', async () => {
    await rawSasl(async (run) => {
      for (const first of ['garbage', 'n,,r=abc', 'p=tls-server-end-point,,n=root,r=abc', `n,,n=${'x'.repeat(11 * 1024)},r=abc`, '']) {
        await expect(run({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: new Binary(Buffer.from(first)) })).rejects.toMatchObject({ code: 18, message: 'Authentication failed.' });
      }
      await expect(run({ saslStart: 1, mechanism: 'PLAIN', payload: new Binary(Buffer.from('\u0000root\u0000example')) })).rejects.toMatchObject({
        code: 2,
        codeName: 'BadValue',
        message: "Unsupported mechanism 'PLAIN' on authentication database 'admin'",
      });
      await expect(run({ saslStart: 1, mechanism: 'SCRAM-SHA-512', payload: new Binary(Buffer.alloc(0)) })).rejects.toMatchObject({
        code: 2,
        message: "Unsupported mechanism 'SCRAM-SHA-512' on authentication database 'admin'",
      });
      await run({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: new Binary(Buffer.from(`n,,n=root,r=${nonce()}`)) });
      await expect(run({ saslContinue: 1, conversationId: 2, payload: new Binary(Buffer.alloc(0)) })).rejects.toMatchObject({ code: 17, message: 'sasl: Mismatched conversation id' });
      await expect(run({ saslStart: 1, mechanism: 'SCRAM-SHA-256' })).rejects.toMatchObject({ code: 40414, message: "BSON field 'saslStart.payload' is missing but a required field" });
      await expect(run({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: { a: 1 } })).rejects.toMatchObject({
        code: 14,
        message: "BSON field 'saslStart.payload' is the wrong type 'object', expected types '[string, binData']",
      });
    });
  });

  test('speculative authentication in hello answers the first step', async () => {
    await rawSasl(async (run) => {
      const bare = `n=root,r=${nonce()}`;
      const hello = await run({ hello: 1, speculativeAuthenticate: { saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: new Binary(Buffer.from(`n,,${bare}`)), db: 'admin', options: { skipEmptyExchange: true } } });
      expect(hello.speculativeAuthenticate.conversationId).toBe(1);
      expect(hello.speculativeAuthenticate.done).toBe(false);
      const final = clientFinal('SCRAM-SHA-256', 'root', 'example', bare, hello.speculativeAuthenticate.payload);
      expect((await run({ saslContinue: 1, conversationId: 1, payload: new Binary(Buffer.from(final.message)) })).done).toBe(true);
      const failed = await run({ hello: 1, speculativeAuthenticate: { saslStart: 1, mechanism: 'PLAIN', payload: new Binary(Buffer.alloc(0)), db: 'admin' } });
      expect(failed.speculativeAuthenticate).toBeUndefined();
    });
  });
});

describe('without --auth', () => {
  test('credentials sent are still verified once users exist, and nothing is enforced', async () => {
    const open = await MayflyServer.create();
    try {
      await withClient(open.getUri(), async (c) => {
        expect((await c.db('app').collection('c').insertOne({ a: 1 })).acknowledged).toBe(true);
        expect(await c.db('app').command({ createUser: 'app', pwd: 'secret', roles: ['read'] })).toEqual({ ok: 1 });
      });
      const uri = (pwd: string) => `mongodb://app:${pwd}@127.0.0.1:${open.port}/app`;
      await expect(withClient(uri('wrong'), (c) => c.db('app').command({ ping: 1 }))).rejects.toMatchObject({ code: 18 });
      const inserted = await withClient(uri('secret'), (c) => c.db('app').collection('c').insertOne({ a: 2 }));
      expect(inserted.acknowledged).toBe(true);
    } finally {
      await open.stop();
    }
  });
});

describe('the localhost exception', () => {
  test('with no user, only createUser on admin runs; then the first user logs in', async () => {
    const fresh = await MayflyServer.create({ auth: { enabled: true } });
    try {
      await withClient(fresh.getUri(), async (c) => {
        await expect(c.db('app').command({ createUser: 'x', pwd: 'y', roles: [] })).rejects.toMatchObject({ code: 13, message: 'Command createUser requires authentication' });
        await expect(c.db('admin').command({ listDatabases: 1 })).rejects.toMatchObject({ code: 13 });
        expect(await c.db('admin').command({ createUser: 'boss', pwd: 'pw', roles: ['root'] })).toEqual({ ok: 1 });
        await expect(c.db('admin').command({ createUser: 'second', pwd: 'pw', roles: [] })).rejects.toMatchObject({ code: 13, message: 'Command createUser requires authentication' });
      });
      const users = await withClient(`mongodb://boss:pw@127.0.0.1:${fresh.port}/`, (c) => c.db('admin').command({ usersInfo: 1 }));
      expect(users.users.map((u: Document) => u.user)).toEqual(['boss']);
    } finally {
      await fresh.stop();
    }
  });
});
