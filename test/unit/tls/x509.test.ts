/**
 * src/auth/x509.ts: a certificate's subject printed as mongod prints it (RFC 2253, last RDN
 * first, OpenSSL's short names, mongod's escaping), and the order of mongod's X509 checks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  attributeShortName,
  authenticateX509,
  CertificateParseError,
  escapeRfc2253,
  formatSubjectName,
  subjectNameOf,
  X509Refusal,
} from '../../../src/auth/x509.js';
import { CommandError } from '../../../src/errors/command_error.js';
import { certificateDer, makeTestCertificates, opensslSubject, type TestCertificates } from '../../support/certificates.js';

describe('escapeRfc2253', () => {
  const cases: Array<[string, string]> = [
    ['client', 'client'],
    ['Smith, Jones', 'Smith\\, Jones'],
    ['a+b', 'a\\+b'],
    ['say "hi"', 'say \\"hi\\"'],
    ['back\\slash', 'back\\\\slash'],
    ['<tag>', '\\<tag\\>'],
    ['a;b', 'a\\;b'],
    ['#first', '\\#first'],
    ['mid#dle', 'mid#dle'],
    [' lead', '\\ lead'],
    ['trail ', 'trail\\ '],
    // mongod escapes a trailing space only when the escaped text is longer than two characters.
    ['a ', 'a '],
    ['ab ', 'ab\\ '],
    ['  ', '\\ \\ '],
    ['', ''],
    ['é', '\\C3\\A9'],
  ];
  test.each(cases)('%j → %j', (value, escaped) => {
    expect(escapeRfc2253(Buffer.from(value, 'utf8'))).toBe(escaped);
  });
});

describe('formatSubjectName', () => {
  const attr = (oid: string, value: string) => ({ oid, value: Buffer.from(value) });
  test('RDNs last first, the attributes of a multi-valued RDN reversed too, unknown OIDs dotted', () => {
    expect(formatSubjectName([[attr('2.5.4.6', 'US')], [attr('2.5.4.10', 'Mayfly')], [attr('2.5.4.11', 'A'), attr('0.9.2342.19200300.100.1.1', 'u')], [attr('2.5.4.3', 'c')]])).toBe(
      'CN=c,UID=u+OU=A,O=Mayfly,C=US',
    );
    expect(formatSubjectName([[attr('1.3.6.1.4.1.99999.1', 'x')]])).toBe('1.3.6.1.4.1.99999.1=x');
  });
  test.each([
    ['2.5.4.3', 'CN'],
    ['2.5.4.6', 'C'],
    ['2.5.4.7', 'L'],
    ['2.5.4.8', 'ST'],
    ['2.5.4.9', 'street'],
    ['2.5.4.10', 'O'],
    ['2.5.4.11', 'OU'],
    ['0.9.2342.19200300.100.1.25', 'DC'],
    ['0.9.2342.19200300.100.1.1', 'UID'],
    ['1.2.840.113549.1.9.1', 'emailAddress'],
    ['2.5.4.5', 'serialNumber'],
    ['2.5.4.42', 'GN'],
    ['2.5.4.4', 'SN'],
  ])('OID %s prints as %s', (oid, name) => {
    expect(attributeShortName(oid)).toBe(name);
  });
});

describe('subjectNameOf (DER certificates made by openssl)', () => {
  let certs: TestCertificates;
  beforeAll(() => {
    certs = makeTestCertificates();
  });
  afterAll(() => certs.remove());

  test('each test certificate reads as openssl -nameopt RFC2253 prints it, and as the helper states', () => {
    const files: Array<[string, string]> = [
      [certs.clientFile, certs.clientSubject],
      [certs.escapedClientFile, certs.escapedSubject],
      [certs.multiValuedClientFile, certs.multiValuedSubject],
      [certs.serverFile, 'O=Mayfly,CN=localhost'],
      [certs.caFile, 'O=Mayfly,CN=Mayfly Test CA'],
    ];
    for (const [file, expected] of files) {
      expect(subjectNameOf(certificateDer(file))).toBe(expected);
      expect(subjectNameOf(certificateDer(file))).toBe(opensslSubject(file));
    }
  });

  test('bytes that are not a certificate are a CertificateParseError, never a crash', () => {
    const der = certificateDer(certs.clientFile);
    const bad = [Buffer.alloc(0), Buffer.from([0x30]), Buffer.from([0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), Buffer.from([0x04, 0x00]), der.subarray(0, 40), Buffer.from([0x30, 0x02, 0x30, 0x00])];
    for (const bytes of bad) expect(() => subjectNameOf(bytes)).toThrow(CertificateParseError);
  });
});

describe('authenticateX509', () => {
  const subject = 'CN=client,O=Mayfly';
  const bound: string[] = [];
  const bind = (name: string) => {
    bound.push(name);
  };

  test('the subject is the user; a given user must be the subject; only on $external', () => {
    expect(authenticateX509(subject, undefined, '$external', bind)).toBe(subject);
    expect(authenticateX509(subject, subject, '$external', bind)).toBe(subject);
    expect(authenticateX509(subject, '', '$external', bind)).toBe(subject);
    expect(bound).toEqual([subject, subject, subject]);
  });

  test("mongod's order: no subject, then a user that is not it, then the database", () => {
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof CommandError ? [err.code, err.message] : [(err as Error).name, (err as Error).message];
      }
      return undefined;
    };
    expect(refusal(() => authenticateX509(null, 'CN=x', 'admin', bind))).toEqual(['X509Refusal', 'No verified subject name available from client']);
    expect(refusal(() => authenticateX509(subject, 'CN=x', 'admin', bind))).toEqual(['X509Refusal', 'There is no x.509 client certificate matching the user.']);
    expect(refusal(() => authenticateX509(subject, undefined, 'admin', bind))).toEqual([17, 'X.509 authentication must always use the $external database.']);
    expect(new X509Refusal('r')).toBeInstanceOf(Error);
  });

  test("the auth layer's UserNotFound passes through", () => {
    const missing = () => {
      throw new CommandError('UserNotFound', `Could not find user "${subject}" for db "$external"`);
    };
    expect(() => authenticateX509(subject, undefined, '$external', missing)).toThrow(`Could not find user "${subject}" for db "$external"`);
  });
});
