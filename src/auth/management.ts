/**
 * What the user- and role-management commands share: parsing role and user names as mongod
 * takes them (`"name"` in the command's database, or `{ role|user, db }`), the mechanisms and
 * passwords of createUser/updateUser, and the documents usersInfo and rolesInfo answer.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';
import type { AuthManager } from './auth_manager.js';
import { makeCredentials, mechanismsOf, rolesOf, type UserName } from './credentials.js';
import { parsePrivilege, privilegeFromDocument, privilegeToDocument, type Privilege } from './privileges.js';
import { builtinRole, isBuiltinRole, type RoleName } from './roles.js';
import { isScramMechanism, type ScramMechanismName } from './scram.js';

/** mongod's IDL 14 TypeMismatch for `path`. */
function wrongType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

function isPlainDocument(v: unknown): v is Document {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { _bsontype?: unknown })._bsontype === undefined;
}

/** One role name: `"role"` (in `db`) or `{ role, db }`. */
export function parseRoleName(value: unknown, db: string): RoleName {
  if (typeof value === 'string') return { role: value, db };
  if (isPlainDocument(value)) {
    if (typeof value.role !== 'string') throw new CommandError('BadValue', "Role names must have a 'role' field of type string");
    if (typeof value.db !== 'string') throw new CommandError('BadValue', "Role names must have a 'db' field of type string");
    return { role: value.role, db: value.db };
  }
  throw new CommandError('BadValue', 'Role names must be either strings or objects');
}

/** The role names of `cmd[field]` (an array). */
export function parseRoleNames(cmd: Document, field: string, command: string, db: string): RoleName[] {
  const value = cmd[field];
  if (!Array.isArray(value)) throw wrongType(`${command}.${field}`, value, 'array');
  return value.map((v) => parseRoleName(v, db));
}

/** The privileges of `cmd[field]` (an array of `{ resource, actions }`). */
export function parsePrivileges(cmd: Document, field: string, command: string): Privilege[] {
  const value = cmd[field];
  if (!Array.isArray(value)) throw wrongType(`${command}.${field}`, value, 'array');
  return value.map(parsePrivilege);
}

/** One user name: `"user"` (in `db`) or `{ user, db }`. */
export function parseUserName(value: unknown, db: string): UserName {
  if (typeof value === 'string') return { user: value, db };
  if (isPlainDocument(value)) {
    if (typeof value.user !== 'string') throw new CommandError('BadValue', "User names must have a 'user' field of type string");
    if (typeof value.db !== 'string') throw new CommandError('BadValue', "User names must have a 'db' field of type string");
    return { user: value.user, db: value.db };
  }
  throw new CommandError('BadValue', 'User names must be either strings or objects');
}

/** Adds `add` to `roles` (each once, in order). */
export function addRoles(roles: readonly RoleName[], add: readonly RoleName[]): RoleName[] {
  const out = [...roles];
  for (const r of add) if (!out.some((o) => o.role === r.role && o.db === r.db)) out.push(r);
  return out;
}

/** `roles` without `remove`. */
export function removeRoles(roles: readonly RoleName[], remove: readonly RoleName[]): RoleName[] {
  return roles.filter((r) => !remove.some((o) => o.role === r.role && o.db === r.db));
}

/** Stored role names as documents. */
export function roleDocuments(roles: readonly RoleName[]): Document[] {
  return roles.map((r) => ({ role: r.role, db: r.db }));
}

/** The `mechanisms` of createUser/updateUser (default: both SCRAM ones). */
export function parseMechanisms(value: unknown, command: string): ScramMechanismName[] {
  if (value === undefined) return ['SCRAM-SHA-1', 'SCRAM-SHA-256'];
  if (!Array.isArray(value)) throw wrongType(`${command}.mechanisms`, value, 'array');
  if (value.length === 0) throw new CommandError('BadValue', 'mechanisms field must not be empty');
  const out: ScramMechanismName[] = [];
  for (const m of value) {
    if (typeof m !== 'string') throw wrongType(`${command}.mechanisms`, m, 'string');
    if (!isScramMechanism(m)) throw new CommandError('BadValue', `Unknown auth mechanism '${m}'`);
    if (!out.includes(m)) out.push(m);
  }
  return out;
}

/** The credentials for `cmd.pwd` (createUser, updateUser), checked as mongod does. */
export function credentialsFor(manager: AuthManager, name: UserName, cmd: Document, command: string): Document {
  const pwd = cmd.pwd;
  if (typeof pwd !== 'string') throw wrongType(`${command}.pwd`, pwd, 'string');
  if (name.db === '$external') throw new CommandError('BadValue', "Cannot set the password for users defined on the '$external' database");
  if (pwd === '') throw new CommandError('BadValue', 'Password cannot be empty');
  const mechanisms = parseMechanisms(cmd.mechanisms, command);
  if (cmd.digestPassword === false && mechanisms.includes('SCRAM-SHA-256')) {
    throw new CommandError('BadValue', 'Use of SCRAM-SHA-256 requires undigested passwords');
  }
  return makeCredentials(name.user, pwd, mechanisms, manager.iterations);
}

/** What usersInfo shows of a stored user. */
export function userInfoDocument(manager: AuthManager, doc: Document, showCredentials: boolean, showPrivileges: boolean): Document {
  const out: Document = { _id: doc._id, userId: doc.userId, user: doc.user, db: doc.db };
  if (showCredentials) out.credentials = doc.credentials;
  if (doc.customData !== undefined) out.customData = doc.customData;
  const roles = rolesOf(doc);
  out.roles = roleDocuments(roles);
  if (showPrivileges) {
    const resolved = manager.resolve(roles);
    out.inheritedRoles = roleDocuments(resolved.roles);
    out.inheritedPrivileges = resolved.privileges.map(privilegeToDocument);
    out.inheritedAuthenticationRestrictions = [];
    out.authenticationRestrictions = [];
  }
  out.mechanisms = mechanismsOf(doc);
  return out;
}

/** What rolesInfo shows of a role (built-in or custom). */
export function roleInfoDocument(manager: AuthManager, name: RoleName, showPrivileges: boolean): Document | undefined {
  const builtin = builtinRole(name);
  const stored = builtin ? undefined : manager.findRoleDocument(name);
  if (!builtin && !stored) return undefined;
  const direct = builtin ? builtin.roles : rolesOf(stored!);
  const own: Privilege[] = builtin ? [...builtin.privileges] : Array.isArray(stored!.privileges) ? (stored!.privileges as Document[]).map(privilegeFromDocument) : [];
  const out: Document = builtin ? { role: name.role, db: name.db, isBuiltin: true } : { _id: stored!._id, role: name.role, db: name.db, isBuiltin: false };
  out.roles = roleDocuments(direct);
  const inherited = manager.resolve(direct);
  out.inheritedRoles = roleDocuments(inherited.roles);
  if (showPrivileges) {
    out.privileges = own.map(privilegeToDocument);
    out.inheritedPrivileges = manager.resolve([name]).privileges.map(privilegeToDocument);
  }
  return out;
}

/** Throws unless `name` may be created or changed as a custom role. */
export function checkCustomRoleName(name: RoleName, verb: string): void {
  if (name.role === '') throw new CommandError('BadValue', `Cannot ${verb} a role with an empty name`);
  if (isBuiltinRole(name)) {
    throw new CommandError('BadValue', `Cannot ${verb} built-in role: ${name.role}@${name.db}`);
  }
}

/**
 * Throws 5 GraphContainsCycle when giving `name` the roles `roles` makes it inherit itself.
 */
export function checkNoCycle(manager: AuthManager, name: RoleName, roles: readonly RoleName[]): void {
  const reached = manager.resolve(roles).roles;
  if (reached.some((r) => r.role === name.role && r.db === name.db)) {
    throw new CommandError('GraphContainsCycle', `Granting roles to ${name.role}@${name.db} would introduce a cycle in the role graph`);
  }
}

/** After dropping `dropped`: no user or custom role holds them any more (as mongod's dropRole). */
export function dropRoleReferences(manager: AuthManager, dropped: readonly RoleName[]): void {
  if (dropped.length === 0) return;
  const hit = (doc: Document) => rolesOf(doc).some((r) => dropped.some((d) => d.role === r.role && d.db === r.db));
  for (const user of manager.allUsers().filter(hit)) {
    manager.replaceUser({ user: String(user.user), db: String(user.db) }, { ...user, roles: roleDocuments(removeRoles(rolesOf(user), dropped)) });
  }
  for (const role of manager.allRoles().filter(hit)) {
    manager.replaceRole({ role: String(role.role), db: String(role.db) }, { ...role, roles: roleDocuments(removeRoles(rolesOf(role), dropped)) });
  }
}
