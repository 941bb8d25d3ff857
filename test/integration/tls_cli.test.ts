/**
 * TLS from the command line (the compiled `bin/mayfly.js`, as cli.test.ts) and from mongosh
 * (`--tls --tlsCAFile --tlsCertificateKeyFile`, and `db.getSiblingDB('$external').auth()` with
 * MONGODB-X509), and the listener's robustness against a broken TLS client.
 */
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { MayflyServer } from '../../src/index.js';
import { makeTestCertificates, type TestCertificates } from '../support/certificates.js';
import { MAYFLY_BIN, runMongosh, startCli, stopCli } from '../support/processes.js';

const bin = MAYFLY_BIN;

let certs: TestCertificates;
beforeAll(() => {
  certs = makeTestCertificates();
});
afterAll(() => certs.remove());



describe('mayfly --tls-*', () => {
  it('serves TLS with --tls-mode requireTLS; getCmdLineOpts shows net.tls and hides the key password', async () => {
    const args = ['--port', '0', '--quiet', '--tls-mode', 'requireTLS', '--tls-cert-key-file', certs.serverEncryptedFile,
      '--tls-certificate-key-file-password', certs.serverKeyPassword, '--tls-ca-file', certs.caFile, '--tls-allow-connections-without-certificates'];
    const { child, uri } = await startCli(args);
    try {
      const client = new MongoClient(uri, { tls: true, tlsCAFile: certs.caFile, serverSelectionTimeoutMS: 5000 });
      const opts = await client.db('admin').command({ getCmdLineOpts: 1 });
      expect(opts.parsed.net.tls).toEqual({
        mode: 'requireTLS',
        certificateKeyFile: certs.serverEncryptedFile,
        certificateKeyFilePassword: '<password>',
        CAFile: certs.caFile,
        allowConnectionsWithoutCertificates: true,
      });
      expect(opts.argv).toEqual(['mayfly', ...args.map((a) => (a === certs.serverKeyPassword ? '<password>' : a))]);
      await client.close();
    } finally {
      expect(await stopCli(child)).toBe(0);
    }
  });

  it('a bad TLS flag or file is one line on stderr and exit code 2', () => {
    const cases: Array<[string[], string]> = [
      [['--tls-mode', 'requireTLS'], "mayfly: --tls-mode requireTLS needs the server's certificate and key: give --tls-cert-key-file <PEM file>\n"],
      [['--tls-mode', 'requireTLS', '--tls-cert-key-file', '/nonexistent.pem'], 'mayfly: --tls-cert-key-file: /nonexistent.pem does not exist; give the path of a PEM file with the certificate and the private key\n'],
      [['--tls-ca-file', certs.caFile], 'mayfly: --tls-ca-file needs TLS turned on: give --tls-mode requireTLS (or allowTLS, preferTLS)\n'],
      [['--tls-mode', 'requireTLS', '--tls-cert-key-file', certs.serverEncryptedFile], `mayfly: --tls-cert-key-file: the private key in ${certs.serverEncryptedFile} is encrypted; give its password with --tls-certificate-key-file-password\n`],
    ];
    for (const [args, stderr] of cases) {
      const run = spawnSync(process.execPath, [bin, '--port', '0', ...args], { encoding: 'utf8', timeout: 20_000 });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 2, stderr });
    }
    const mode = spawnSync(process.execPath, [bin, '--port', '0', '--tls-mode', 'sometimes'], { encoding: 'utf8', timeout: 20_000 });
    expect(mode.status).toBe(2);
    expect(mode.stderr).toMatch(/^mayfly: option '--tls-mode <mode>' argument 'sometimes' is invalid\. Allowed choices are disabled, allowTLS, preferTLS, requireTLS\./);
  });
});

describe('mongosh --tls', () => {
  let server: MayflyServer;
  beforeAll(async () => {
    server = await MayflyServer.create({ tls: { mode: 'requireTLS', certificateKeyFile: certs.serverFile, caFile: certs.caFile } });
    const admin = new MongoClient(server.getUri(), { tls: true, tlsCAFile: certs.caFile, tlsCertificateKeyFile: certs.clientFile });
    await admin.db('$external').command({ createUser: certs.clientSubject, roles: [{ role: 'readWriteAnyDatabase', db: 'admin' }] });
    await admin.close();
  });
  afterAll(async () => server.stop());

  it('connects with --tls --tlsCAFile --tlsCertificateKeyFile and authenticates with MONGODB-X509', async () => {
    const script = [
      "db.getSiblingDB('shell').c.insertOne({ _id: 1, via: 'tls' })",
      "print('FOUND ' + JSON.stringify(db.getSiblingDB('shell').c.findOne()))",
      "print('AUTH ' + JSON.stringify(db.getSiblingDB('$external').auth({ mechanism: 'MONGODB-X509' })))",
    ].join('; ');
    const run = await runMongosh([server.getUri(), '--tls', '--tlsCAFile', certs.caFile, '--tlsCertificateKeyFile', certs.clientFile], script);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['FOUND {"_id":1,"via":"tls"}', 'AUTH {"ok":1}']);
    expect(run.status).toBe(0);
  });
});

describe('a broken TLS client', () => {
  it('a malformed ClientHello, or a client that hangs up mid-handshake, closes that connection only', async () => {
    const server = await MayflyServer.create({ tls: { mode: 'preferTLS', certificateKeyFile: certs.serverFile, caFile: certs.caFile } });
    try {
      // A handshake record holding a ClientHello of 28 bytes of nonsense (version 0xeeee, ...).
      const garbage = Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, 0x20, 0x01, 0x00, 0x00, 0x1c]), Buffer.alloc(28, 0xee)]);
      const closed = await new Promise<boolean>((resolve, reject) => {
        const socket = net.connect(server.port, '127.0.0.1', () => socket.write(garbage));
        socket.on('error', () => undefined);
        socket.resume(); // the server's alert is read and dropped, so that its end arrives
        socket.on('close', () => resolve(true));
        socket.setTimeout(10_000, () => reject(new Error('the server kept the connection')));
      });
      expect(closed).toBe(true);
      await new Promise<void>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1', () => socket.end(Buffer.from([0x16, 0x03, 0x01])));
        socket.on('error', () => undefined);
        socket.resume();
        socket.on('close', () => resolve());
      });
      const plain = new MongoClient(server.getUri(), { serverSelectionTimeoutMS: 5000 });
      expect(await plain.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
      await plain.close();
    } finally {
      await server.stop();
    }
  });
});
