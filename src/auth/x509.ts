/**
 * MONGODB-X509: the client certificate's subject is the user name. This file reads the subject
 * of a DER certificate and prints it as mongod does (RFC 2253: the last RDN first, attributes
 * by OpenSSL's short names, values escaped), and checks an X509 authentication request against
 * the connection's verified subject, in mongod 8's order (`authentication_commands.cpp`,
 * `sasl_x509_server_conversation.cpp`, `ssl_manager.cpp`).
 *
 * Reference: RFC 2253 §2 (<https://www.rfc-editor.org/rfc/rfc2253#section-2>), X.690 DER.
 */
import { CommandError } from '../errors/command_error.js';

/** The mechanism's name on the wire. */
export const X509_MECHANISM = 'MONGODB-X509';
/** The only database X509 users live in. */
export const EXTERNAL_DB = '$external';

/** One attribute of a distinguished name: its OID (dotted) and its value's bytes. */
export interface NameAttribute {
  readonly oid: string;
  readonly value: Buffer;
}

/** The OIDs OpenSSL prints by a short name (`OBJ_nid2sn`); any other prints as its dotted OID. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '1.2.840.113549.1.9.2': 'unstructuredName',
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'street',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.13': 'description',
  '2.5.4.15': 'businessCategory',
  '2.5.4.17': 'postalCode',
  '2.5.4.41': 'name',
  '2.5.4.42': 'GN',
  '2.5.4.43': 'initials',
  '2.5.4.44': 'generationQualifier',
  '2.5.4.45': 'x500UniqueIdentifier',
  '2.5.4.46': 'dnQualifier',
  '2.5.4.65': 'pseudonym',
  '2.5.4.97': 'organizationIdentifier',
};

/** The characters RFC 2253 §2.4 escapes anywhere in a value. */
const ESCAPED = new Set([',', '+', '"', '\\', '<', '>', ';']);

/** An error in a certificate's encoding. */
export class CertificateParseError extends Error {
  constructor(message: string) {
    super(`cannot read the certificate: ${message}`);
    this.name = 'CertificateParseError';
  }
}

interface Tlv {
  readonly tag: number;
  /** Start of the contents. */
  readonly start: number;
  /** End of the contents (exclusive). */
  readonly end: number;
}

/** The DER element at `pos` of `der`, within `limit`. */
function readTlv(der: Buffer, pos: number, limit: number): Tlv {
  if (pos + 2 > limit) throw new CertificateParseError('truncated element');
  const tag = der[pos]!;
  if ((tag & 0x1f) === 0x1f) throw new CertificateParseError('multi-byte tags are not used in certificates');
  let len = der[pos + 1]!;
  let start = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) throw new CertificateParseError('bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!;
    start += n;
  }
  const end = start + len;
  if (end > limit) throw new CertificateParseError('element runs past its container');
  return { tag, start, end };
}

/** The elements inside a constructed element. */
function children(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let pos = parent.start; pos < parent.end; ) {
    const child = readTlv(der, pos, parent.end);
    out.push(child);
    pos = child.end;
  }
  return out;
}

function expectTag(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (t === undefined || t.tag !== tag) throw new CertificateParseError(`expected ${what}`);
  return t;
}

/** An OBJECT IDENTIFIER's contents in dotted form. */
function decodeOid(bytes: Buffer): string {
  if (bytes.length === 0) throw new CertificateParseError('empty OID');
  const parts: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      parts.push(value);
      value = 0;
    }
  }
  const first = parts.shift()!;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

/**
 * The subject of a DER certificate as RDNs in certificate order (the most general first), each
 * RDN's attributes in their DER order.
 */
export function certificateSubject(der: Buffer): NameAttribute[][] {
  const cert = readTlv(der, 0, der.length);
  expectTag(cert, 0x30, 'a certificate SEQUENCE');
  const tbs = expectTag(children(der, cert)[0], 0x30, 'the tbsCertificate SEQUENCE');
  const fields = children(der, tbs);
  // [0] version is optional; then serialNumber, signature, issuer, validity, subject.
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  const subject = expectTag(fields[offset + 4], 0x30, 'the subject Name');
  return children(der, subject).map((rdn) => {
    expectTag(rdn, 0x31, 'an RDN SET');
    return children(der, rdn).map((ava) => {
      const [type, value] = children(der, expectTag(ava, 0x30, 'an AttributeTypeAndValue'));
      const oid = decodeOid(der.subarray(expectTag(type, 0x06, 'an attribute OID').start, type!.end));
      if (value === undefined) throw new CertificateParseError('an attribute without a value');
      return { oid, value: der.subarray(value.start, value.end) };
    });
  });
}

/** A value escaped as mongod's `escapeRfc2253` does: its bytes, bytes ≥ 0x80 as `\XX`. */
export function escapeRfc2253(value: Buffer): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const b = value[i]!;
    const ch = String.fromCharCode(b);
    if (i === 0 && (ch === ' ' || ch === '#')) out += `\\${ch}`;
    else if (b >= 0x80) out += `\\${b.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += ESCAPED.has(ch) ? `\\${ch}` : ch;
  }
  if (out.length > 2 && out.endsWith(' ')) out = `${out.slice(0, -1)}\\ `;
  return out;
}

/** OpenSSL's short name of an attribute OID, or the OID itself. */
export function attributeShortName(oid: string): string {
  return SHORT_NAMES[oid] ?? oid;
}

/**
 * The subject as mongod prints it (its X509 user name): mongod walks OpenSSL's name entries
 * from the last to the first, so RDNs and the attributes inside a multi-valued RDN both come
 * out reversed; RDNs are joined by `,`, the attributes of one by `+`.
 */
export function formatSubjectName(subject: readonly (readonly NameAttribute[])[]): string {
  return [...subject]
    .reverse()
    .map((rdn) => [...rdn].reverse().map((a) => `${attributeShortName(a.oid)}=${escapeRfc2253(a.value)}`).join('+'))
    .join(',');
}

/** The RFC 2253 subject name of a DER certificate. */
export function subjectNameOf(der: Buffer): string {
  return formatSubjectName(certificateSubject(der));
}

/**
 * What mongod logs for a refused X509 authentication and hides from the client behind 18
 * "Authentication failed." (its `authenticate` command passes on only UserNotFound and
 * ProtocolError).
 */
export class X509Refusal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'X509Refusal';
  }
}

/** Binds a user name to a connection, or throws 11 UserNotFound (the auth layer's `authenticateExternal`). */
export type AuthenticateExternal = (userName: string) => void;

/**
 * Authenticates the MONGODB-X509 request of a connection whose verified certificate subject is
 * `peerSubject` (null: no TLS, or no verified certificate) for `user` (absent: the subject) on
 * `db`; returns the user name. Throws `X509Refusal` (to log, then answer 18), a ProtocolError
 * `CommandError`, or what `authenticateExternal` throws (11 UserNotFound).
 */
export function authenticateX509(peerSubject: string | null, user: string | undefined, db: string, authenticateExternal: AuthenticateExternal): string {
  if (peerSubject === null || peerSubject === '') throw new X509Refusal('No verified subject name available from client');
  if (user !== undefined && user !== '' && user !== peerSubject) throw new X509Refusal('There is no x.509 client certificate matching the user.');
  if (db !== EXTERNAL_DB) throw new CommandError('ProtocolError', 'X.509 authentication must always use the $external database.');
  authenticateExternal(peerSubject);
  return peerSubject;
}
