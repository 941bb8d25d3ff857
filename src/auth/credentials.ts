/**
 * Stored users, as mongod keeps them in `admin.system.users`:
 *
 *   { _id: "<db>.<user>", userId: UUID, user, db,
 *     credentials: { "SCRAM-SHA-1": { iterationCount, salt, storedKey, serverKey },
 *                    "SCRAM-SHA-256": { ... } },
 *     roles: [ { role, db } ], customData? }
 *
 * and the made-up credential an unknown user gets, so that the first SCRAM step answers the
 * same for a user who exists and one who does not.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { UUID, type Document } from '../bson/library.js';
import { makeScramCredential, SCRAM_MECHANISMS, type ScramCredential, type ScramMechanismName } from './scram.js';
import type { RoleName } from './roles.js';

/** A user name `{ user, db }`. */
export interface UserName {
  readonly user: string;
  readonly db: string;
}

/** `user@db`, as mongod writes a user name in messages. */
export function userNameString(u: UserName): string {
  return `${u.user}@${u.db}`;
}

/** The `_id` of a user's document in admin.system.users. */
export function userDocumentId(u: UserName): string {
  return `${u.db}.${u.user}`;
}

/** The iteration counts new credentials get (mongod's scramIterationCount, scramSHA256IterationCount). */
export interface IterationCounts {
  readonly 'SCRAM-SHA-1': number;
  readonly 'SCRAM-SHA-256': number;
}

/** mongod's defaults. */
export const DEFAULT_ITERATIONS: IterationCounts = { 'SCRAM-SHA-1': 10000, 'SCRAM-SHA-256': 15000 };

/** The `credentials` document for `password` of `user`, one entry per mechanism. */
export function makeCredentials(user: string, password: string, mechanisms: readonly ScramMechanismName[], iterations: IterationCounts = DEFAULT_ITERATIONS): Document {
  const out: Document = {};
  for (const mech of mechanisms) out[mech] = { ...makeScramCredential(mech, user, password, iterations[mech]) };
  return out;
}

/** A new user document. */
export function makeUserDocument(name: UserName, credentials: Document, roles: readonly RoleName[], customData?: Document): Document {
  const doc: Document = {
    _id: userDocumentId(name),
    userId: new UUID(randomUUID()),
    user: name.user,
    db: name.db,
    credentials,
    roles: roles.map((r) => ({ role: r.role, db: r.db })),
  };
  if (customData !== undefined) doc.customData = customData;
  return doc;
}

/** The SCRAM credential of a stored user for `mech`, if it has one. */
export function scramCredentialOf(doc: Document, mech: ScramMechanismName): ScramCredential | undefined {
  const creds = doc.credentials as Document | undefined;
  const c = creds?.[mech] as Document | undefined;
  if (!c || typeof c.salt !== 'string' || typeof c.storedKey !== 'string' || typeof c.serverKey !== 'string') return undefined;
  return { iterationCount: Number(c.iterationCount), salt: c.salt, storedKey: c.storedKey, serverKey: c.serverKey };
}

/** The mechanisms a stored user can authenticate with, in mongod's order. */
export function mechanismsOf(doc: Document): ScramMechanismName[] {
  const creds = (doc.credentials as Document | undefined) ?? {};
  return (Object.keys(SCRAM_MECHANISMS) as ScramMechanismName[]).filter((m) => creds[m] !== undefined);
}

/** The roles of a stored user. */
export function rolesOf(doc: Document): RoleName[] {
  const roles = Array.isArray(doc.roles) ? (doc.roles as Document[]) : [];
  return roles.map((r) => ({ role: String(r.role), db: String(r.db) }));
}

/**
 * Makes up a credential for a user who does not exist: the salt comes from an HMAC of the name
 * under a per-server secret (the same name gets the same salt every time, as a real user's
 * would), the iteration count is the default, and no proof matches its keys.
 */
export class DecoyCredentials {
  private readonly secret = randomBytes(32);

  /** The made-up credential of `name` for `mech`. */
  for(name: UserName, mech: ScramMechanismName, iterations: number): ScramCredential {
    const spec = SCRAM_MECHANISMS[mech];
    const mac = (label: string, bytes: number) =>
      createHmac('sha256', this.secret).update(`${label}\u0000${mech}\u0000${name.db}\u0000${name.user}`).digest().subarray(0, bytes).toString('base64');
    return { iterationCount: iterations, salt: mac('salt', spec.saltBytes), storedKey: mac('stored', spec.keyBytes), serverKey: mac('server', spec.keyBytes) };
  }
}
