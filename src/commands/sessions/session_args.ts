/**
 * mongod's IDL parsers for the session commands' arguments (logical_session_id.idl,
 * kill_sessions.idl): session identifiers `{id: UUID, uid?}`, the `{user, db}` filters of
 * killAllSessions and the patterns of killAllSessionsByPattern; and the read and write concern
 * rules of commands that support neither (`Command ... does not support ...`, 72).
 */
import { Binary, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../../storage/values/paths.js';
import { typeMismatch } from '../args.js';
import type { CommandContext } from '../types.js';

function unknownField(path: string): CommandError {
  return new CommandError('IDLUnknownField', `BSON field '${path}' is an unknown field.`);
}

function missingField(path: string): CommandError {
  return new CommandError('IDLFailedToParse', `BSON field '${path}' is missing but a required field`);
}

/** An IDL `uuid` field: Binary subtype 4 of 16 bytes. */
function parseUuid(path: string, value: unknown): Binary {
  if (!(value instanceof Binary)) throw typeMismatch(path, value, ['binData']);
  if (value.sub_type !== Binary.SUBTYPE_UUID) {
    throw new CommandError('TypeMismatch', `BSON field '${path}' is the wrong binData type, expected type 'UUID' (subtype 4)`);
  }
  if (value.position !== 16) throw new CommandError('InvalidUUID', 'uuid must be a 16-byte binary field with UUID (4) subtype');
  return value;
}

/** A `LogicalSessionFromClient`: `{id: UUID, uid?: BinData}`; returns its id. */
export function parseSessionFromClient(value: unknown, path: string): Binary {
  if (!isDocument(value)) throw typeMismatch(path, value, ['object']);
  let id: Binary | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key === 'id') {
      if (v !== null && v !== undefined) id = parseUuid('LogicalSessionFromClient.id', v);
    } else if (key === 'uid') {
      if (v !== null && v !== undefined && !(v instanceof Binary)) throw typeMismatch('LogicalSessionFromClient.uid', v, ['binData']);
    } else throw unknownField(`LogicalSessionFromClient.${key}`);
  }
  if (id === undefined) throw missingField('LogicalSessionFromClient.id');
  return id;
}

/** An array of `LogicalSessionFromClient` (endSessions, refreshSessions, killSessions); null elements are skipped. */
export function parseSessionList(value: unknown, idl: string, field: string): Binary[] {
  if (value === null || value === undefined) throw missingField(`${idl}.${field}`);
  if (!Array.isArray(value)) throw typeMismatch(`${idl}.${field}`, value, ['array']);
  const ids: Binary[] = [];
  value.forEach((el, i) => {
    if (el !== null) ids.push(parseSessionFromClient(el, `${idl}.${field}.${i}`));
  });
  return ids;
}

/** A `{user, db}` filter of killAllSessions / killAllSessionsByPattern. */
export interface UserFilter {
  readonly user: string;
  readonly db: string;
}

/** One `KillAllSessionsUser`: `{user: string, db: string}`, both required. */
function parseUser(value: unknown, path: string): UserFilter {
  if (!isDocument(value)) throw typeMismatch(path, value, ['object']);
  let user: string | undefined;
  let db: string | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key !== 'user' && key !== 'db') throw unknownField(`KillAllSessionsUser.${key}`);
    if (v === null || v === undefined) continue;
    if (typeof v !== 'string') throw typeMismatch(`KillAllSessionsUser.${key}`, v, ['string']);
    if (key === 'user') user = v;
    else db = v;
  }
  if (user === undefined) throw missingField('KillAllSessionsUser.user');
  if (db === undefined) throw missingField('KillAllSessionsUser.db');
  return { user, db };
}

/** The users array of killAllSessions (`[]`: every user); null entries are skipped. */
export function parseUserList(value: unknown, path: string): UserFilter[] {
  if (value === null || value === undefined) throw missingField(path);
  if (!Array.isArray(value)) throw typeMismatch(path, value, ['array']);
  const users: UserFilter[] = [];
  value.forEach((el, i) => {
    if (el !== null) users.push(parseUser(el, `${path}.${i}`));
  });
  return users;
}

/** One pattern of killAllSessionsByPattern: what sessions it matches. */
export interface KillPattern {
  readonly lsid?: Binary;
  readonly uid?: Binary;
  readonly users?: readonly UserFilter[];
}

/** One `KillAllSessionsByPattern`: `{lsid?, uid?, users?, roles?}`. */
export function parsePattern(value: unknown, path: string): KillPattern {
  if (!isDocument(value)) throw typeMismatch(path, value, ['object']);
  const pattern: { lsid?: Binary; uid?: Binary; users?: UserFilter[] } = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === null || v === undefined) continue;
    switch (key) {
      case 'lsid': {
        if (!isDocument(v)) throw typeMismatch('KillAllSessionsByPattern.lsid', v, ['object']);
        pattern.lsid = parseSessionFromClient(v, 'KillAllSessionsByPattern.lsid');
        break;
      }
      case 'uid':
        if (!(v instanceof Binary)) throw typeMismatch('KillAllSessionsByPattern.uid', v, ['binData']);
        pattern.uid = v;
        break;
      case 'users':
        pattern.users = parseUserList(v, 'KillAllSessionsByPattern.users');
        break;
      case 'roles':
        if (!Array.isArray(v)) throw typeMismatch('KillAllSessionsByPattern.roles', v, ['array']);
        break;
      default:
        throw unknownField(`KillAllSessionsByPattern.${key}`);
    }
  }
  return pattern;
}

/** True when a `{user, db}` filter names the user of unauthenticated sessions (`""@""`). */
export function matchesNoAuthUser(users: readonly UserFilter[]): boolean {
  return users.some((u) => u.user === '' && u.db === '');
}

/**
 * Refuses a read concern other than the default (`local`): 20 for `afterClusterTime` on a
 * standalone, 72 `Command <name> does not support { readConcern: ... }` for another level.
 */
export function checkDefaultReadConcernOnly(ctx: CommandContext, cmd: Document, name: string): void {
  const rc = cmd.readConcern;
  if (!isDocument(rc)) return;
  if (rc.afterClusterTime !== undefined && rc.afterClusterTime !== null && ctx.server.settings.replSetName === null) {
    throw new CommandError('IllegalOperation', 'Cannot specify afterClusterTime readConcern without replication enabled');
  }
  const level = rc.level;
  if (typeof level === 'string' && level !== 'local') {
    throw new CommandError('InvalidOptions', `Command ${name} does not support { readConcern: { level: "${level}", provenance: "clientSupplied" } }`);
  }
}
