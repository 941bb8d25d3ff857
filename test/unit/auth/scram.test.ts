/**
 * SCRAM on the server side against the RFCs' test vectors (RFC 5802 §5 for SHA-1, RFC 7677 §3
 * for SHA-256), mongod's SHA-1 password digest, SASLprep, and the malformed messages that must
 * fail.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { deriveKeys, parseClientFirst, ScramFailure, scramPassword, ScramServerConversation, type ScramCredential, type ScramMechanismName } from '../../../src/auth/scram.js';

function credential(mech: ScramMechanismName, password: string, saltB64: string, iterations: number): ScramCredential {
  const keys = deriveKeys(mech, password, Buffer.from(saltB64, 'base64'), iterations);
  return { iterationCount: iterations, salt: saltB64, storedKey: keys.storedKey.toString('base64'), serverKey: keys.serverKey.toString('base64') };
}

const VECTORS = [
  {
    rfc: 'RFC 5802 (SCRAM-SHA-1)',
    mech: 'SCRAM-SHA-1' as const,
    clientFirst: 'n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL',
    serverNonce: '3rfcNHYJY1ZVvWVs7j',
    salt: 'QSXCR+Q6sek8bf92',
    serverFirst: 'r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096',
    clientFinal: 'c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=',
    serverFinal: 'v=rmF9pqV8S7suAoZWja4dJRkFsKQ=',
  },
  {
    rfc: 'RFC 7677 (SCRAM-SHA-256)',
    mech: 'SCRAM-SHA-256' as const,
    clientFirst: 'n,,n=user,r=rOprNGfwEbeRWgbNEkqO',
    serverNonce: '%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0',
    salt: 'W22ZaJ0SNY7soEsUEjb6gQ==',
    serverFirst: 'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096',
    clientFinal: 'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
    serverFinal: 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=',
  },
];

describe('the RFC test vectors', () => {
  for (const v of VECTORS) {
    test(v.rfc, () => {
      const first = parseClientFirst(v.clientFirst);
      expect(first).toEqual({ user: 'user', clientNonce: v.clientFirst.split('r=')[1], gs2Header: 'n,,', bare: v.clientFirst.slice(3) });
      const conv = new ScramServerConversation(v.mech, first, credential(v.mech, 'pencil', v.salt, 4096), true, v.serverNonce);
      expect(conv.serverFirstMessage).toBe(v.serverFirst);
      expect(conv.finish(v.clientFinal)).toBe(v.serverFinal);
    });
  }

  test('a wrong proof, a wrong nonce, a wrong channel binding fail', () => {
    const v = VECTORS[1]!;
    const cases = [
      [v.clientFinal.replace('p=dHzb', 'p=eHzb'), 'SCRAM authentication failed, storedKey mismatch'],
      [v.clientFinal.replace('k0,p=', 'k1,p='), 'Unmatched SCRAM nonce received from client in second step'],
      [v.clientFinal.replace('c=biws', 'c=eSws'), 'Incorrect channel binding'],
      [v.clientFinal.replace(/p=.*$/, 'p=AAAA'), 'Incorrect SCRAM client proof'],
      ['c=biws', 'Incorrect number of arguments for second SCRAM client message'],
      ['garbage', 'Incorrect number of arguments for second SCRAM client message'],
    ] as const;
    for (const [message, reason] of cases) {
      const conv = new ScramServerConversation(v.mech, parseClientFirst(v.clientFirst), credential(v.mech, 'pencil', v.salt, 4096), true, v.serverNonce);
      expect(() => conv.finish(message)).toThrow(new ScramFailure(reason));
    }
  });

  test('a made-up credential never succeeds, even with the right proof for its keys', () => {
    const v = VECTORS[1]!;
    const conv = new ScramServerConversation(v.mech, parseClientFirst(v.clientFirst), credential(v.mech, 'pencil', v.salt, 4096), false, v.serverNonce);
    expect(() => conv.finish(v.clientFinal)).toThrow(new ScramFailure('SCRAM authentication failed, storedKey mismatch'));
  });
});

describe('client-first messages', () => {
  test.each([
    ['n,,n=us=2Cer=3D,r=abc', 'us,er='],
    ['y,,n=user,r=abc', 'user'],
  ])('%s names %s', (message, user) => {
    expect(parseClientFirst(message).user).toBe(user);
  });

  test.each([
    ['p=tls-unique,,n=user,r=abc', 'Server does not support channel binding'],
    ['n,a=admin,n=user,r=abc', 'SCRAM authorization identities are not supported'],
    ['n,,n=,r=abc', 'Incorrect SCRAM user name'],
    ['n,,n=us=41er,r=abc', 'Incorrect SCRAM user name'],
    ['n,,r=abc,n=user', 'Incorrect SCRAM client first message'],
    ['n,,n=user', 'Incorrect SCRAM client first message'],
    ['n,,m=ext,n=user,r=abc', 'Incorrect SCRAM client first message'],
    ['n,,n=user,r=abc,m=ext', 'SCRAM mandatory extensions are not supported'],
    ['n,,n=user,r=a,c', 'Incorrect SCRAM client first message'],
    ['', 'Incorrect SCRAM client first message'],
  ])('%j fails: %s', (message, reason) => {
    expect(() => parseClientFirst(message)).toThrow(new ScramFailure(reason));
  });
});

describe('passwords', () => {
  test("SCRAM-SHA-1 hashes mongod's digest hex(md5('user:mongo:password'))", () => {
    expect(scramPassword('SCRAM-SHA-1', 'alice', 'secret')).toBe(createHash('md5').update('alice:mongo:secret').digest('hex'));
  });

  test.each([
    ['I\u00ADX', 'IX'],
    ['user', 'user'],
    ['\u00AA', 'a'],
    ['\u2168', 'IX'],
    ['a\u00A0b', 'a b'],
  ])('SCRAM-SHA-256 SASLpreps %j to %j (RFC 4013 §3)', (password, prepared) => {
    expect(scramPassword('SCRAM-SHA-256', 'u', password)).toBe(prepared);
  });

  test('SASLprep refuses prohibited characters (RFC 4013 §3: U+0007)', () => {
    expect(() => scramPassword('SCRAM-SHA-256', 'u', '\u0007')).toThrow('Prohibited character, see https://tools.ietf.org/html/rfc4013#section-2.3');
  });
});
