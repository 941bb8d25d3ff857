/**
 * Test certificates made at run time with openssl (never committed, so nothing expires in the
 * tree): a CA, a server certificate for localhost and 127.0.0.1 signed by it, client
 * certificates signed by it, and a second CA with a client certificate of its own, for the
 * "wrong CA" cases. Each call makes a fresh temporary directory; `remove()` deletes it.
 *
 *   const certs = makeTestCertificates();
 *   ... certs.caFile, certs.serverFile, certs.clientFile ...
 *   certs.remove();
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The files of one set of test certificates (PEM). */
export interface TestCertificates {
  readonly dir: string;
  /** The CA that signed the server and client certificates. */
  readonly caFile: string;
  /** The server's certificate and key (CN=localhost, SAN localhost and 127.0.0.1). */
  readonly serverFile: string;
  /** The same server certificate with its key encrypted under `serverKeyPassword`. */
  readonly serverEncryptedFile: string;
  readonly serverKeyPassword: string;
  /** A client certificate and key signed by the CA; its subject is `clientSubject`. */
  readonly clientFile: string;
  /** The client certificate's subject as mongod prints it (RFC 2253). */
  readonly clientSubject: string;
  /** A second client, its subject with characters RFC 2253 escapes; `escapedSubject`. */
  readonly escapedClientFile: string;
  readonly escapedSubject: string;
  /** A client whose subject has a multi-valued RDN (OU and UID); `multiValuedSubject`. */
  readonly multiValuedClientFile: string;
  readonly multiValuedSubject: string;
  /** Another CA, which signed nothing the server trusts. */
  readonly otherCaFile: string;
  /** A client certificate signed by the other CA. */
  readonly otherClientFile: string;
  /** Deletes the directory. */
  remove(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function newKey(dir: string, name: string): void {
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', `${name}.key`]);
}

function newCa(dir: string, name: string, subject: string): void {
  newKey(dir, name);
  openssl(dir, ['req', '-x509', '-new', '-key', `${name}.key`, '-subj', subject, '-days', '2', '-sha256', '-out', `${name}.crt`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
}

/** A key and a certificate for `subject` signed by CA `ca`, written as one PEM `name.pem`. */
function newLeaf(dir: string, ca: string, name: string, subject: string, extensions: string, multivalue = false): string {
  newKey(dir, name);
  const req = ['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`];
  if (multivalue) req.push('-multivalue-rdn');
  openssl(dir, req);
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-days', '2', '-sha256',
    '-extfile', `${name}.ext`, '-out', `${name}.crt`]);
  const file = path.join(dir, `${name}.pem`);
  writeFileSync(file, readFileSync(path.join(dir, `${name}.key`), 'utf8') + readFileSync(path.join(dir, `${name}.crt`), 'utf8'));
  return file;
}

/** The subject of the certificate in PEM file `file` as openssl prints it with `-nameopt RFC2253`. */
export function opensslSubject(file: string): string {
  const out = execFileSync('openssl', ['x509', '-in', file, '-noout', '-subject', '-nameopt', 'RFC2253'], { encoding: 'utf8' });
  return out.trim().replace(/^subject=/, '');
}

/** The DER bytes of the (first) certificate in PEM file `file`. */
export function certificateDer(file: string): Buffer {
  const pem = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(readFileSync(file, 'utf8'));
  if (pem === null) throw new Error(`no certificate in ${file}`);
  return Buffer.from(pem[1]!.replace(/\s+/g, ''), 'base64');
}

/** Makes a fresh set of test certificates in a temporary directory. */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'mayfly-certs-'));
  newCa(dir, 'ca', '/CN=Mayfly Test CA/O=Mayfly');
  newCa(dir, 'other-ca', '/CN=Other CA/O=Elsewhere');
  const serverFile = newLeaf(dir, 'ca', 'server', '/CN=localhost/O=Mayfly',
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  const serverKeyPassword = 'correct horse';
  openssl(dir, ['pkey', '-in', 'server.key', '-aes256', '-passout', `pass:${serverKeyPassword}`, '-out', 'server-encrypted.key']);
  const serverEncryptedFile = path.join(dir, 'server-encrypted.pem');
  writeFileSync(serverEncryptedFile, readFileSync(path.join(dir, 'server-encrypted.key'), 'utf8') + readFileSync(path.join(dir, 'server.crt'), 'utf8'));
  const clientExt = 'extendedKeyUsage=clientAuth\n';
  const clientFile = newLeaf(dir, 'ca', 'client', '/C=US/ST=New York/L=New York City/O=Mayfly/OU=Drivers/CN=client', clientExt);
  const escapedClientFile = newLeaf(dir, 'ca', 'escaped', '/O=Smith\\, Jones & Co/OU=R\\+D/CN=#hash <tag> ', clientExt);
  const multiValuedClientFile = newLeaf(dir, 'ca', 'multi', '/O=Mayfly/OU=Drivers+UID=u1/CN=m\\+v', clientExt, true);
  const otherClientFile = newLeaf(dir, 'other-ca', 'other-client', '/O=Elsewhere/CN=stranger', clientExt);
  return {
    dir,
    caFile: path.join(dir, 'ca.crt'),
    serverFile,
    serverEncryptedFile,
    serverKeyPassword,
    clientFile,
    clientSubject: 'CN=client,OU=Drivers,O=Mayfly,L=New York City,ST=New York,C=US',
    escapedClientFile,
    escapedSubject: 'CN=\\#hash \\<tag\\>\\ ,OU=R\\+D,O=Smith\\, Jones & Co',
    multiValuedClientFile,
    multiValuedSubject: 'CN=m\\+v,UID=u1+OU=Drivers,O=Mayfly',
    otherCaFile: path.join(dir, 'other-ca.crt'),
    otherClientFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
