/**
 * src/server/tls.ts: telling a TLS ClientHello from a MongoDB message by the first bytes, the
 * start-up checks of loadTlsConfig (dates from the injected clock), and getCmdLineOpts' net.tls.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { classifyFirstBytes, EMBEDDED_TLS_LABELS, loadTlsConfig, TlsConfigError, tlsCmdLine } from '../../../src/server/tls.js';
import { makeTestCertificates, type TestCertificates } from '../../support/certificates.js';

function header(length: number, opCode: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32LE(length, 0);
  b.writeInt32LE(7, 4);
  b.writeInt32LE(0, 8);
  b.writeInt32LE(opCode, 12);
  return b;
}

describe('classifyFirstBytes', () => {
  const clientHello = Buffer.from('16030100f8010000f40303' + 'ab'.repeat(32), 'hex');
  test.each<[string, Buffer, string]>([
    ['nothing yet', Buffer.alloc(0), 'more'],
    ['a ClientHello', clientHello, 'tls'],
    ['its first byte alone', clientHello.subarray(0, 1), 'more'],
    ['its first 15 bytes', clientHello.subarray(0, 15), 'more'],
    ['an OP_MSG of 300 bytes', header(300, 2013), 'plain'],
    ['an OP_QUERY of 790 bytes (starts 0x16 0x03)', header(790, 2004), 'plain'],
    ['an OP_MSG of 790 bytes (starts 0x16 0x03)', header(790, 2013), 'plain'],
    ['an OP_COMPRESSED of 66326 bytes (starts 0x16 0x03 0x01)', header(66326, 2012), 'plain'],
    ['a 22-byte length then not 0x03', header(22, 2013), 'plain'],
    ['an HTTP request', Buffer.from('GET / HTTP/1.1\r\n'), 'plain'],
  ])('%s → %s', (_what, bytes, kind) => {
    expect(classifyFirstBytes(bytes)).toBe(kind);
  });
});

describe('loadTlsConfig', () => {
  let certs: TestCertificates;
  let now: number;
  beforeAll(() => {
    certs = makeTestCertificates();
    now = Date.parse(new X509Certificate(readFileSync(certs.serverFile)).validFrom) + 60_000;
  });
  afterAll(() => certs.remove());

  test('disabled gives null; a working configuration its server options and net.tls', () => {
    expect(loadTlsConfig({}, EMBEDDED_TLS_LABELS, now)).toBeNull();
    expect(loadTlsConfig({ mode: 'disabled' }, EMBEDDED_TLS_LABELS, now)).toBeNull();
    const config = loadTlsConfig({ mode: 'allowTLS', certificateKeyFile: certs.serverFile, caFile: certs.caFile, allowConnectionsWithoutCertificates: true }, EMBEDDED_TLS_LABELS, now)!;
    expect(config.mode).toBe('allowTLS');
    expect(config.allowConnectionsWithoutCertificates).toBe(true);
    expect(config.allowInvalidCertificates).toBe(false);
    expect(config.serverOptions.requestCert).toBe(true);
    expect(config.serverOptions.rejectUnauthorized).toBe(false);
    expect(config.cmdLine).toEqual({ mode: 'allowTLS', certificateKeyFile: certs.serverFile, CAFile: certs.caFile, allowConnectionsWithoutCertificates: true });
  });

  test('a server certificate outside its validity (by the server clock) is refused at start-up', () => {
    const cert = new X509Certificate(readFileSync(certs.serverFile));
    const later = Date.parse(cert.validTo) + 1000;
    const options = { mode: 'requireTLS', certificateKeyFile: certs.serverFile } as const;
    expect(() => loadTlsConfig(options, EMBEDDED_TLS_LABELS, later)).toThrow(
      new TlsConfigError(`option 'tls.certificateKeyFile': the certificate in ${certs.serverFile} is expired or not yet valid (valid from ${cert.validFrom} to ${cert.validTo})`),
    );
    expect(() => loadTlsConfig(options, EMBEDDED_TLS_LABELS, Date.parse(cert.validFrom) - 1000)).toThrow(TlsConfigError);
  });

  test('a key that is not the certificate’s, and a CA file without certificates, are refused', () => {
    const mixed = `${readFileSync(`${certs.dir}/client.key`, 'utf8')}${readFileSync(`${certs.dir}/server.crt`, 'utf8')}`;
    const mixedFile = `${certs.dir}/mixed.pem`;
    const keyOnly = `${certs.dir}/client.key`;
    writeFileSync(mixedFile, mixed);
    expect(() => loadTlsConfig({ mode: 'requireTLS', certificateKeyFile: mixedFile }, EMBEDDED_TLS_LABELS, now)).toThrow(
      `option 'tls.certificateKeyFile': the private key in ${mixedFile} is not the key of its (first) certificate`,
    );
    expect(() => loadTlsConfig({ mode: 'requireTLS', certificateKeyFile: certs.serverFile, caFile: keyOnly }, EMBEDDED_TLS_LABELS, now)).toThrow(
      `option 'tls.caFile': ${keyOnly} holds no PEM certificate (-----BEGIN CERTIFICATE-----); give a PEM file with the CA certificates that client certificates chain to`,
    );
  });

  test('an encrypted key opens with its password; the CLI names its flags', () => {
    const config = loadTlsConfig({ mode: 'requireTLS', certificateKeyFile: certs.serverEncryptedFile, certificateKeyFilePassword: certs.serverKeyPassword, caFile: certs.caFile }, EMBEDDED_TLS_LABELS, now)!;
    expect(config.serverOptions.passphrase).toBe(certs.serverKeyPassword);
    const labels = { ...EMBEDDED_TLS_LABELS, mode: '--tls-mode', certificateKeyFile: '--tls-cert-key-file' };
    expect(() => loadTlsConfig({ mode: 'requireTLS' }, labels, now)).toThrow("--tls-mode requireTLS needs the server's certificate and key: give --tls-cert-key-file <PEM file>");
    expect(() => loadTlsConfig({ mode: 'requireTLS', certificateKeyFile: certs.serverFile }, EMBEDDED_TLS_LABELS, now)).toThrow(
      "option 'tls.mode' requireTLS needs a chain of trust for client certificates: give option 'tls.caFile' <PEM file> (the CA that signs your client certificates; if clients have none, also give option 'tls.allowConnectionsWithoutCertificates')",
    );
  });

  test('tlsCmdLine: undefined when disabled, the password redacted', () => {
    expect(tlsCmdLine({})).toBeUndefined();
    expect(tlsCmdLine({ mode: 'disabled', caFile: 'x' })).toBeUndefined();
    expect(tlsCmdLine({ mode: 'requireTLS', certificateKeyFile: 's.pem', certificateKeyFilePassword: 'secret', allowInvalidCertificates: true })).toEqual({
      mode: 'requireTLS',
      certificateKeyFile: 's.pem',
      certificateKeyFilePassword: '<password>',
      allowInvalidCertificates: true,
    });
  });
});

