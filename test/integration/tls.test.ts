/**
 * TLS through the official driver: each `tls.mode`, the driver's `tls=true&tlsCAFile=...&
 * tlsCertificateKeyFile=...` options, mongod's client-certificate rules (none, another CA's,
 * allowed without / allowed invalid), MONGODB-X509 (explicit `authenticate`, speculative in
 * hello through `authMechanism=MONGODB-X509`), getCmdLineOpts, and start-up errors for bad
 * files. The certificates are made at run time (test/support/certificates.ts).
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { Long } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, MongoServerError, MongoServerSelectionError, type MongoClientOptions } from 'mongodb';
import { MayflyOptionError, MayflyServer, type TlsOptions } from '../../src/index.js';
import { makeTestCertificates, type TestCertificates } from '../support/certificates.js';

let certs: TestCertificates;
beforeAll(() => {
  certs = makeTestCertificates();
});
afterAll(() => certs.remove());

const FAIL_FAST = { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 } as const;

function serverTls(extra: TlsOptions = {}): TlsOptions {
  return { mode: 'requireTLS', certificateKeyFile: certs.serverFile, caFile: certs.caFile, ...extra };
}

/** A client with the driver's TLS options (CA and, unless `certificate` is null, a client certificate). */
function tlsClient(server: MayflyServer, certificate: string | null = certs.clientFile, extra: MongoClientOptions = {}): MongoClient {
  return new MongoClient(server.getUri(), {
    tls: true,
    tlsCAFile: certs.caFile,
    ...(certificate === null ? {} : { tlsCertificateKeyFile: certificate }),
    ...FAIL_FAST,
    ...extra,
  });
}

/** Pings with `client`; resolves with the error when it fails. */
async function pingError(client: MongoClient): Promise<unknown> {
  try {
    await client.db('admin').command({ ping: 1 });
    return undefined;
  } catch (err) {
    return err;
  } finally {
    await client.close();
  }
}

/** Writes a plain OP_MSG hello on a raw socket; resolves with the bytes answered before the server closed. */
function plainHello(port: number): Promise<{ answered: number; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answered = 0;
    socket.on('data', (chunk: Buffer) => {
      answered += chunk.length;
      socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ answered, closed: true }));
    // OP_MSG { hello: 1, $db: 'admin' }
    const body = Buffer.from('2a0000001068656c6c6f000100000002246462000600000061646d696e0000', 'hex');
    const header = Buffer.alloc(21);
    header.writeInt32LE(21 + body.length, 0);
    header.writeInt32LE(1, 4);
    header.writeInt32LE(0, 8);
    header.writeInt32LE(2013, 12);
    header.writeUInt32LE(0, 16);
    header[20] = 0;
    body.writeInt32LE(body.length, 0);
    socket.write(Buffer.concat([header, body]));
  });
}

describe('tls.mode', () => {
  it('requireTLS: a TLS client with the CA and a certificate works; a plain connection is closed unanswered', async () => {
    const server = await MayflyServer.create({ tls: serverTls() });
    try {
      const client = tlsClient(server);
      const coll = client.db('tls').collection<{ _id: number; a: string }>('c');
      await coll.insertOne({ _id: 1, a: 'x' });
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 'x' });
      expect((await client.db('admin').command({ whatsmyuri: 1 })).you).toMatch(/^127\.0\.0\.1:\d+$/);
      await client.close();
      expect(await plainHello(server.port)).toEqual({ answered: 0, closed: true });
      const plainError = await pingError(new MongoClient(server.getUri(), FAIL_FAST));
      expect(plainError).toBeInstanceOf(MongoServerSelectionError);
    } finally {
      await server.stop();
    }
  });

  for (const mode of ['preferTLS', 'allowTLS'] as const) {
    it(`${mode}: plain and TLS clients are both served on the one port`, async () => {
      const server = await MayflyServer.create({ tls: serverTls({ mode }) });
      try {
        const secure = tlsClient(server);
        const plain = new MongoClient(server.getUri(), FAIL_FAST);
        await secure.db('tls').collection<{ _id: string }>('c').insertOne({ _id: 'secure' });
        await plain.db('tls').collection<{ _id: string }>('c').insertOne({ _id: 'plain' });
        expect(await plain.db('tls').collection<{ _id: string }>('c').find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 'plain' }, { _id: 'secure' }]);
        expect(await secure.db('tls').collection('c').countDocuments()).toBe(2);
        await secure.close();
        await plain.close();
      } finally {
        await server.stop();
      }
    });
  }

  it('disabled (the default): a TLS client cannot connect, a plain one can', async () => {
    const server = await MayflyServer.create();
    try {
      expect(await pingError(tlsClient(server))).toBeInstanceOf(MongoServerSelectionError);
      expect(await pingError(new MongoClient(server.getUri(), FAIL_FAST))).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});

describe('certificates', () => {
  it('the driver refuses a server whose certificate is not signed by its tlsCAFile', async () => {
    const server = await MayflyServer.create({ tls: serverTls() });
    try {
      const err = await pingError(tlsClient(server, certs.clientFile, { tlsCAFile: certs.otherCaFile }));
      expect(err).toBeInstanceOf(MongoServerSelectionError);
      expect(String((err as Error).message)).toMatch(/certificate/i);
    } finally {
      await server.stop();
    }
  });

  it('a client without a certificate is refused, unless allowConnectionsWithoutCertificates', async () => {
    const strict = await MayflyServer.create({ tls: serverTls() });
    const lenient = await MayflyServer.create({ tls: serverTls({ allowConnectionsWithoutCertificates: true }) });
    try {
      expect(await pingError(tlsClient(strict, null))).toBeInstanceOf(MongoServerSelectionError);
      expect(await pingError(tlsClient(lenient, null))).toBeUndefined();
    } finally {
      await strict.stop();
      await lenient.stop();
    }
  });

  it("a client certificate of another CA is refused, unless allowInvalidCertificates (then it gives no X509 user)", async () => {
    const strict = await MayflyServer.create({ tls: serverTls() });
    const lenient = await MayflyServer.create({ tls: serverTls({ allowInvalidCertificates: true }) });
    try {
      expect(await pingError(tlsClient(strict, certs.otherClientFile))).toBeInstanceOf(MongoServerSelectionError);
      const client = tlsClient(lenient, certs.otherClientFile);
      const err = await client.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MongoServerError);
      expect((err as MongoServerError).code).toBe(18);
      expect((err as MongoServerError).message).toBe('Authentication failed.');
      await client.close();
    } finally {
      await strict.stop();
      await lenient.stop();
    }
  });
});

describe('MONGODB-X509', () => {
  let server: MayflyServer;
  beforeAll(async () => {
    server = await MayflyServer.create({ tls: serverTls({ allowConnectionsWithoutCertificates: true }) });
    // X.509 logs in the $external user named by the subject: mongod's users must exist first.
    const admin = tlsClient(server);
    for (const subject of [certs.clientSubject, certs.escapedSubject, certs.multiValuedSubject]) {
      await admin.db('$external').command({ createUser: subject, roles: [{ role: 'readWriteAnyDatabase', db: 'admin' }] });
    }
    await admin.close();
  });
  afterAll(async () => server.stop());

  it('authenticate maps the certificate subject to a $external user, in RFC 2253 form', async () => {
    const client = tlsClient(server);
    const reply = await client.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' });
    expect(reply).toEqual({ user: certs.clientSubject, dbname: '$external', ok: 1 });
    const named = await client.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509', user: certs.clientSubject });
    expect(named).toEqual({ user: certs.clientSubject, dbname: '$external', ok: 1 });
    await client.close();
  });

  it('escapes the subject and orders a multi-valued RDN as mongod prints them', async () => {
    const client = tlsClient(server, certs.escapedClientFile);
    const reply = await client.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' });
    expect(reply.user).toBe(certs.escapedSubject);
    await client.close();
    const multi = tlsClient(server, certs.multiValuedClientFile);
    expect((await multi.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' })).user).toBe(certs.multiValuedSubject);
    await multi.close();
  });

  it('a subject with no $external user answers 11 UserNotFound, and the connection stays unauthenticated', async () => {
    const admin = tlsClient(server);
    await admin.db('$external').command({ dropUser: certs.multiValuedSubject });
    const multi = tlsClient(server, certs.multiValuedClientFile);
    const err = await multi.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' }).catch((e: unknown) => e);
    expect({ code: (err as MongoServerError).code, message: (err as MongoServerError).message }).toEqual({
      code: 11,
      message: `Could not find user "${certs.multiValuedSubject}" for db "$external"`,
    });
    expect((await multi.db('admin').command({ connectionStatus: 1 })).authInfo.authenticatedUsers).toEqual([]);
    await admin.db('$external').command({ createUser: certs.multiValuedSubject, roles: [{ role: 'readWriteAnyDatabase', db: 'admin' }] });
    await multi.close();
    await admin.close();
  });

  it("answers mongod's errors: a user that is not the subject, no certificate, another database, another mechanism", async () => {
    const withCert = tlsClient(server);
    const withoutCert = tlsClient(server, null);
    const failures = await Promise.all([
      withCert.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509', user: 'CN=someone else' }).catch((e: unknown) => e),
      withoutCert.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' }).catch((e: unknown) => e),
      withCert.db('admin').command({ authenticate: 1, mechanism: 'MONGODB-X509' }).catch((e: unknown) => e),
      withCert.db('$external').command({ authenticate: 1, mechanism: 'SCRAM-SHA-256' }).catch((e: unknown) => e),
      withCert.db('$external').command({ authenticate: 1 }).catch((e: unknown) => e),
    ]);
    const seen = failures.map((e) => ({ code: (e as MongoServerError).code, message: (e as MongoServerError).message }));
    expect(seen).toEqual([
      { code: 18, message: 'Authentication failed.' },
      { code: 18, message: 'Authentication failed.' },
      { code: 17, message: 'X.509 authentication must always use the $external database.' },
      { code: 18, message: 'Authentication failed.' },
      { code: 40414, message: "BSON field 'authenticate.mechanism' is missing but a required field" },
    ]);
    await withCert.close();
    await withoutCert.close();
  });

  it('over a plain connection X509 fails with 18', async () => {
    const prefer = await MayflyServer.create({ tls: serverTls({ mode: 'preferTLS' }) });
    try {
      const plain = new MongoClient(prefer.getUri(), FAIL_FAST);
      const err = await plain.db('$external').command({ authenticate: 1, mechanism: 'MONGODB-X509' }).catch((e: unknown) => e);
      expect({ code: (err as MongoServerError).code, message: (err as MongoServerError).message }).toEqual({ code: 18, message: 'Authentication failed.' });
      await plain.close();
    } finally {
      await prefer.stop();
    }
  });

  it('the driver authenticates with authMechanism=MONGODB-X509 in the URI (speculatively, in hello)', async () => {
    const uri = `${server.getUri()}?tls=true&tlsCAFile=${encodeURIComponent(certs.caFile)}&tlsCertificateKeyFile=${encodeURIComponent(certs.clientFile)}&authMechanism=MONGODB-X509`;
    const client = new MongoClient(uri, FAIL_FAST);
    await client.db('x509').collection<{ _id: number }>('c').insertOne({ _id: 1 });
    expect(await client.db('x509').collection('c').findOne()).toEqual({ _id: 1 });
    await client.close();
  });

  it('the driver gets 18 for a URI user that is not the certificate subject', async () => {
    const uri = `${server.getUri()}?tls=true&tlsCAFile=${encodeURIComponent(certs.caFile)}&tlsCertificateKeyFile=${encodeURIComponent(certs.clientFile)}&authMechanism=MONGODB-X509`;
    const client = new MongoClient(uri.replace('mongodb://', `mongodb://${encodeURIComponent('CN=nobody')}@`), FAIL_FAST);
    const err = await client.connect().catch((e: unknown) => e);
    expect((err as MongoServerError).code).toBe(18);
    expect((err as MongoServerError).message).toBe('Authentication failed.');
    await client.close();
  });

  it('speculativeAuthenticate in hello answers { user, dbname }, and nothing when it fails', async () => {
    const client = tlsClient(server);
    const ok = await client.db('admin').command({ hello: 1, speculativeAuthenticate: { authenticate: 1, mechanism: 'MONGODB-X509', db: '$external' } });
    expect(ok.speculativeAuthenticate).toEqual({ user: certs.clientSubject, dbname: '$external' });
    const refused = await client.db('admin').command({ hello: 1, speculativeAuthenticate: { authenticate: 1, mechanism: 'MONGODB-X509', user: 'CN=other' } });
    expect(refused.isWritablePrimary).toBe(true);
    expect('speculativeAuthenticate' in refused).toBe(false);
    await client.close();
  });
});

describe('serverStatus', () => {
  it('transportSecurity counts TLS connections by protocol version', async () => {
    const server = await MayflyServer.create({ tls: serverTls({ mode: 'preferTLS' }) });
    try {
      await new Promise<void>((resolve, reject) => {
        const secure = tls.connect({ port: server.port, host: '127.0.0.1', ca: readFileSync(certs.caFile), cert: readFileSync(certs.clientFile), key: readFileSync(certs.clientFile), servername: 'localhost' }, () => {
          expect(secure.getProtocol()).toBe('TLSv1.3');
          secure.end();
        });
        secure.on('error', reject);
        secure.on('close', () => resolve());
        secure.resume();
      });
      const plain = new MongoClient(server.getUri(), FAIL_FAST);
      const status = await plain.db('admin').command({ serverStatus: 1 }, { promoteLongs: false });
      expect(status.transportSecurity).toEqual({ '1.0': Long.fromNumber(0), '1.1': Long.fromNumber(0), '1.2': Long.fromNumber(0), '1.3': Long.fromNumber(1), unknown: Long.fromNumber(0) });
      await plain.close();
    } finally {
      await server.stop();
    }
  });
});

describe('configuration', () => {
  it('getCmdLineOpts reports net.tls, the key password redacted', async () => {
    const server = await MayflyServer.create({ tls: { mode: 'preferTLS', certificateKeyFile: certs.serverEncryptedFile, certificateKeyFilePassword: certs.serverKeyPassword, caFile: certs.caFile, allowInvalidCertificates: true } });
    try {
      const client = tlsClient(server);
      const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
      expect(opts.parsed.net.tls).toEqual({ mode: 'preferTLS', certificateKeyFile: certs.serverEncryptedFile, certificateKeyFilePassword: '<password>', CAFile: certs.caFile, allowInvalidCertificates: true });
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it('bad TLS options and files are one clear start-up error', async () => {
    const who = 'MayflyServer.create()';
    const cases: Array<[unknown, string]> = [
      [{ mode: 'requireTLS' }, `${who}: option 'tls.mode' requireTLS needs the server's certificate and key: give option 'tls.certificateKeyFile' <PEM file>`],
      [{ caFile: certs.caFile }, `${who}: option 'tls.caFile' needs TLS turned on: give option 'tls.mode' requireTLS (or allowTLS, preferTLS)`],
      [{ mode: 'strictTLS' }, `${who}: option 'tls.mode' must be one of 'disabled', 'allowTLS', 'preferTLS', 'requireTLS', not "strictTLS"`],
      [{ mode: 'requireTLS', certificateKeyFile: '/nonexistent/server.pem' }, `${who}: option 'tls.certificateKeyFile': /nonexistent/server.pem does not exist; give the path of a PEM file with the certificate and the private key`],
      [{ mode: 'requireTLS', certificateKeyFile: certs.caFile }, `${who}: option 'tls.certificateKeyFile': ${certs.caFile} holds no private key (-----BEGIN PRIVATE KEY-----); put the key and the certificate in one PEM file`],
      [{ mode: 'requireTLS', certificateKeyFile: certs.serverEncryptedFile }, `${who}: option 'tls.certificateKeyFile': the private key in ${certs.serverEncryptedFile} is encrypted; give its password with option 'tls.certificateKeyFilePassword'`],
      [{ mode: 'requireTLS', certificateKeyFile: certs.serverEncryptedFile, certificateKeyFilePassword: 'wrong' }, `${who}: option 'tls.certificateKeyFilePassword': the private key in ${certs.serverEncryptedFile} cannot be decrypted with the password given`],
      [{ mode: 'requireTLS', certificateKeyFile: certs.serverFile, caFile: certs.dir }, `${who}: option 'tls.caFile': ${certs.dir} is a directory; give the path of a PEM file with the CA certificates that client certificates chain to`],
      [{ mode: 'requireTLS', certificateKeyFile: certs.serverFile, allowInvalidCertificates: 'yes' }, `${who}: option 'tls.allowInvalidCertificates' must be true or false`],
      [{ mode: 'requireTLS', certificateKeyFile: certs.serverFile }, `${who}: option 'tls.mode' requireTLS needs a chain of trust for client certificates: give option 'tls.caFile' <PEM file> (the CA that signs your client certificates; if clients have none, also give option 'tls.allowConnectionsWithoutCertificates')`],
      [{ mode: 'requireTLS', pemKeyFile: 'x' }, `${who}: unknown option 'tls.pemKeyFile'; the TLS options are mode, certificateKeyFile, certificateKeyFilePassword, caFile, allowConnectionsWithoutCertificates, allowInvalidCertificates`],
      ['requireTLS', `${who}: option 'tls' must be an object such as { mode: 'requireTLS', certificateKeyFile: 'server.pem', caFile: 'ca.pem' }, not "requireTLS"`],
    ];
    for (const [tls, message] of cases) {
      const err = await MayflyServer.create({ tls } as never).then(
        async (s) => {
          await s.stop();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(tls)).toBeInstanceOf(MayflyOptionError);
      expect((err as Error).message).toBe(message);
    }
  });
});
