/**
 * SCRAM-SHA-1 and SCRAM-SHA-256, the server side (RFC 5802, RFC 7677), with node:crypto.
 *
 *   client-first  n,,n=<user>,r=<client nonce>
 *   server-first  r=<client nonce><server nonce>,s=<salt>,i=<iterations>
 *   client-final  c=biws,r=<nonce>,p=<proof>
 *   server-final  v=<server signature>
 *
 * The server keeps only StoredKey and ServerKey (credentials.ts); checking a proof costs two
 * HMACs and a hash, never a PBKDF2. Every failure is the one `ScramFailure` (the commands
 * answer 18 "Authentication failed." for all of them, so nothing tells a wrong user from a
 * wrong password).
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { saslprep } from '@mongodb-js/saslprep';

/** The two SCRAM variants. */
export const SCRAM_MECHANISMS = {
  'SCRAM-SHA-1': { hash: 'sha1', keyBytes: 20, saltBytes: 16, defaultIterations: 10000 },
  'SCRAM-SHA-256': { hash: 'sha256', keyBytes: 32, saltBytes: 28, defaultIterations: 15000 },
} as const;
/** `SCRAM-SHA-1` or `SCRAM-SHA-256`. */
export type ScramMechanismName = keyof typeof SCRAM_MECHANISMS;

/** Whether `name` is a SCRAM mechanism. */
export function isScramMechanism(name: string): name is ScramMechanismName {
  return name === 'SCRAM-SHA-1' || name === 'SCRAM-SHA-256';
}

/** A stored SCRAM credential (base64 strings, as mongod keeps them in admin.system.users). */
export interface ScramCredential {
  readonly iterationCount: number;
  readonly salt: string;
  readonly storedKey: string;
  readonly serverKey: string;
}

/** Why a SCRAM step failed (for the log only: clients are told "Authentication failed."). */
export class ScramFailure extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ScramFailure';
  }
}

/** H(x). */
function hash(mech: ScramMechanismName, data: Buffer | string): Buffer {
  return createHash(SCRAM_MECHANISMS[mech].hash).update(data).digest();
}

/** HMAC(key, data). */
function hmac(mech: ScramMechanismName, key: Buffer, data: string): Buffer {
  return createHmac(SCRAM_MECHANISMS[mech].hash, key).update(data).digest();
}

/**
 * The password SCRAM hashes: for SHA-1 mongod's `hex(md5("<user>:mongo:<password>"))`, for
 * SHA-256 the SASLprep'd password (RFC 4013).
 */
export function scramPassword(mech: ScramMechanismName, user: string, password: string): string {
  if (mech === 'SCRAM-SHA-1') return createHash('md5').update(`${user}:mongo:${password}`).digest('hex');
  return saslprep(password);
}

/** SaltedPassword, StoredKey and ServerKey of `password` (already `scramPassword`ed). */
export function deriveKeys(mech: ScramMechanismName, password: string, salt: Buffer, iterations: number): { clientKey: Buffer; storedKey: Buffer; serverKey: Buffer } {
  const salted = pbkdf2Sync(password, salt, iterations, SCRAM_MECHANISMS[mech].keyBytes, SCRAM_MECHANISMS[mech].hash);
  const clientKey = hmac(mech, salted, 'Client Key');
  return { clientKey, storedKey: hash(mech, clientKey), serverKey: hmac(mech, salted, 'Server Key') };
}

/** A new credential for `password` of `user`: a random salt, `iterations` rounds. */
export function makeScramCredential(mech: ScramMechanismName, user: string, password: string, iterations: number, salt = randomBytes(SCRAM_MECHANISMS[mech].saltBytes)): ScramCredential {
  const keys = deriveKeys(mech, scramPassword(mech, user, password), salt, iterations);
  return { iterationCount: iterations, salt: salt.toString('base64'), storedKey: keys.storedKey.toString('base64'), serverKey: keys.serverKey.toString('base64') };
}

/** `=2C` → `,` and `=3D` → `=` (RFC 5802 saslname); undefined when malformed. */
function decodeSaslName(name: string): string | undefined {
  if (/=(?!2C|3D)/.test(name)) return undefined;
  return name.replace(/=2C/g, ',').replace(/=3D/g, '=');
}

/** The `k=v` attributes of a SCRAM message, in order; undefined when malformed. */
function parseAttributes(text: string): Array<[string, string]> | undefined {
  const out: Array<[string, string]> = [];
  for (const part of text.split(',')) {
    if (part.length < 2 || part[1] !== '=' || !/^[A-Za-z]$/.test(part[0]!)) return undefined;
    out.push([part[0]!, part.slice(2)]);
  }
  return out;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PRINTABLE_NONCE = /^[\x21-\x2b\x2d-\x7e]+$/;

/** What the first step learnt: the user to look up. */
export interface ScramClientFirst {
  readonly user: string;
  readonly clientNonce: string;
  readonly gs2Header: string;
  readonly bare: string;
}

/** Parses the client-first message; throws `ScramFailure` when malformed. */
export function parseClientFirst(message: string): ScramClientFirst {
  // gs2-header: "n,," or "y,," (no channel binding here), optionally with a=authzid.
  const m = /^([ny]),(a=[^,]*)?,(.*)$/s.exec(message);
  if (!m) throw new ScramFailure(message.startsWith('p=') ? 'Server does not support channel binding' : 'Incorrect SCRAM client first message');
  if (m[2] !== undefined) throw new ScramFailure('SCRAM authorization identities are not supported');
  const bare = m[3]!;
  const attrs = parseAttributes(bare);
  if (!attrs || attrs.length < 2 || attrs[0]![0] !== 'n' || attrs[1]![0] !== 'r') throw new ScramFailure('Incorrect SCRAM client first message');
  if (attrs.some(([k]) => k === 'm')) throw new ScramFailure('SCRAM mandatory extensions are not supported');
  const user = decodeSaslName(attrs[0]![1]);
  const clientNonce = attrs[1]![1];
  if (user === undefined || user === '') throw new ScramFailure('Incorrect SCRAM user name');
  if (!PRINTABLE_NONCE.test(clientNonce)) throw new ScramFailure('Incorrect SCRAM client nonce');
  return { user, clientNonce, gs2Header: `${m[1]},${m[2] ?? ''},`, bare };
}

/** One SCRAM conversation on the server: step 1 answers server-first, step 2 checks the proof. */
export class ScramServerConversation {
  readonly mechanism: ScramMechanismName;
  private readonly first: ScramClientFirst;
  private readonly credential: ScramCredential;
  /** Whether a proof can succeed at all (false for an unknown user given a made-up credential). */
  private readonly real: boolean;
  private readonly serverFirst: string;
  private readonly nonce: string;

  /** `credential` is the user's, or a made-up one (`real` false) so an unknown user looks the same. */
  constructor(mechanism: ScramMechanismName, first: ScramClientFirst, credential: ScramCredential, real: boolean, serverNonce = randomBytes(24).toString('base64')) {
    this.mechanism = mechanism;
    this.first = first;
    this.credential = credential;
    this.real = real;
    this.nonce = first.clientNonce + serverNonce;
    this.serverFirst = `r=${this.nonce},s=${credential.salt},i=${credential.iterationCount}`;
  }

  /** The server-first message. */
  get serverFirstMessage(): string {
    return this.serverFirst;
  }

  /** Checks the client-final message; returns the server-final message, throws `ScramFailure`. */
  finish(message: string): string {
    const attrs = parseAttributes(message);
    if (!attrs || attrs.length < 3 || attrs[0]![0] !== 'c' || attrs[1]![0] !== 'r') throw new ScramFailure('Incorrect number of arguments for second SCRAM client message');
    const proofAttr = attrs[attrs.length - 1]!;
    if (proofAttr[0] !== 'p') throw new ScramFailure('Incorrect SCRAM client proof');
    const channel = attrs[0]![1];
    if (!BASE64.test(channel) || Buffer.from(channel, 'base64').toString('latin1') !== this.first.gs2Header) {
      throw new ScramFailure('Incorrect channel binding');
    }
    if (attrs[1]![1] !== this.nonce) throw new ScramFailure('Unmatched SCRAM nonce received from client in second step');
    const proofText = proofAttr[1];
    if (!BASE64.test(proofText)) throw new ScramFailure('Incorrect SCRAM client proof');
    const proof = Buffer.from(proofText, 'base64');
    const withoutProof = message.slice(0, message.length - proofText.length - 3);
    const authMessage = `${this.first.bare},${this.serverFirst},${withoutProof}`;
    const storedKey = Buffer.from(this.credential.storedKey, 'base64');
    const signature = hmac(this.mechanism, storedKey, authMessage);
    if (proof.length !== signature.length) throw new ScramFailure('Incorrect SCRAM client proof');
    const clientKey = Buffer.alloc(signature.length);
    for (let i = 0; i < signature.length; i++) clientKey[i] = proof[i]! ^ signature[i]!;
    const ok = timingSafeEqual(hash(this.mechanism, clientKey), storedKey);
    if (!ok || !this.real) throw new ScramFailure('SCRAM authentication failed, storedKey mismatch');
    const serverSignature = hmac(this.mechanism, Buffer.from(this.credential.serverKey, 'base64'), authMessage);
    return `v=${serverSignature.toString('base64')}`;
  }
}
