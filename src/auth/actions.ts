/**
 * The one action table: for every command mongod (and Mayfly) knows, the privileges it needs,
 * after each command's `checkAuthForOperation` / `required_privileges` in mongod
 * (mongo/src/mongo/db/commands/*.cpp, *.idl; action names from auth/action_type.idl).
 *
 * An entry is either
 *   - `NO_AUTH`: the command runs without an authenticated user (mongod's `requiresAuth()`
 *     false: the handshake, the SASL commands, `ping`, `buildInfo`...);
 *   - a function of the request giving the alternatives that authorize it: a list of
 *     requirements, any one of which (all its privileges together) is enough. An empty list of
 *     alternatives means an authenticated user is enough.
 */
import type { Document } from '../bson/library.js';
import type { AuthorizationSession } from './authorization_session.js';
import { CLUSTER, ns, type Resource } from './privileges.js';

/** One privilege a request needs. */
export interface Needed {
  readonly resource: Resource;
  readonly actions: readonly string[];
}
/** Privileges needed together. */
export type Requirement = readonly Needed[];

/** What authorizes a request: alternatives (any one suffices; none listed: any user). */
export type CommandPrivileges = (db: string, cmd: Document, session: AuthorizationSession) => readonly Requirement[];

/** A command that needs no authenticated user. */
export const NO_AUTH = 'no-auth' as const;

/** An entry of the table. */
export type CommandAuth = typeof NO_AUTH | CommandPrivileges;

/** The name of the command's target (its first field's value) when it is a string. */
function target(cmd: Document): string {
  for (const key in cmd) {
    const v = cmd[key];
    return typeof v === 'string' ? v : '';
  }
  return '';
}

/** `db.coll` split at the first dot. */
function splitNs(full: string): [string, string] {
  const dot = full.indexOf('.');
  return dot < 0 ? [full, ''] : [full.slice(0, dot), full.slice(dot + 1)];
}

const need = (resource: Resource, ...actions: string[]): Needed => ({ resource, actions });
/** Any authenticated user. */
const anyUser: CommandPrivileges = () => [];
/** `actions` on the collection the command names. */
const onCollection = (...actions: string[]): CommandPrivileges => (db, cmd) => [[need(ns(db, target(cmd)), ...actions)]];
/** `actions` on the database. */
const onDatabase = (...actions: string[]): CommandPrivileges => (db) => [[need(ns(db, ''), ...actions)]];
/** `actions` on the cluster. */
const onCluster = (...actions: string[]): CommandPrivileges => () => [[need(CLUSTER, ...actions)]];

/** The `db` of each `{ role, db }` (or role name string, in `db`) of `cmd[field]`. */
function roleDbs(db: string, cmd: Document, field: string): string[] {
  const roles = Array.isArray(cmd[field]) ? (cmd[field] as unknown[]) : [];
  const dbs = new Set<string>();
  for (const r of roles) {
    if (typeof r === 'string') dbs.add(db);
    else if (typeof r === 'object' && r !== null && typeof (r as Document).db === 'string') dbs.add((r as Document).db as string);
  }
  return [...dbs];
}

/** The user-management actions: `action` on the database, plus `roleAction` on each granted role's database. */
const userAdmin = (action: string, roleAction?: string): CommandPrivileges => (db, cmd) => {
  const needed: Needed[] = [need(ns(db, ''), action)];
  if (roleAction) for (const d of roleDbs(db, cmd, 'roles')) needed.push(need(ns(d, ''), roleAction));
  return [needed];
};

/** find on the namespaces an aggregation reads and the writes of `$out`/`$merge`. */
const aggregatePrivileges: CommandPrivileges = (db, cmd) => {
  const coll = target(cmd);
  const needed: Needed[] = [];
  const pipeline = Array.isArray(cmd.pipeline) ? (cmd.pipeline as unknown[]) : [];
  let first = true;
  const visit = (stages: unknown[], stageDb: string) => {
    for (const stage of stages) {
      if (typeof stage !== 'object' || stage === null) continue;
      const [name] = Object.keys(stage);
      const spec = (stage as Document)[name!];
      if (first) {
        first = false;
        if (name === '$collStats') needed.push(need(ns(db, coll), 'collStats'));
        if (name === '$indexStats') needed.push(need(ns(db, coll), 'indexStats'));
        if (name === '$currentOp') needed.push(need(CLUSTER, 'inprog'));
        if (name === '$listLocalSessions' || name === '$listSessions') needed.push(need(CLUSTER, 'listSessions'));
      }
      if (name === '$out') {
        const outNs = typeof spec === 'string' ? [stageDb, spec] : [String((spec as Document)?.db ?? stageDb), String((spec as Document)?.coll ?? '')];
        needed.push(need(ns(outNs[0]!, outNs[1]!), 'insert', 'remove'));
      } else if (name === '$merge') {
        const into = typeof spec === 'string' ? spec : (spec as Document)?.into;
        const intoNs = typeof into === 'string' ? [stageDb, into] : [String((into as Document)?.db ?? stageDb), String((into as Document)?.coll ?? '')];
        needed.push(need(ns(intoNs[0]!, intoNs[1]!), 'insert', 'update'));
      } else if ((name === '$lookup' || name === '$graphLookup' || name === '$unionWith') && spec !== null && typeof spec === 'object' || (name === '$unionWith' && typeof spec === 'string')) {
        const from = typeof spec === 'string' ? spec : ((spec as Document).from ?? (spec as Document).coll);
        if (typeof from === 'string') needed.push(need(ns(stageDb, from), 'find'));
        if (typeof spec === 'object' && Array.isArray((spec as Document).pipeline)) visit((spec as Document).pipeline as unknown[], stageDb);
      } else if (name === '$facet' && typeof spec === 'object' && spec !== null) {
        for (const sub of Object.values(spec as Document)) if (Array.isArray(sub)) visit(sub, stageDb);
      }
    }
  };
  visit(pipeline, db);
  // A collectionless aggregate ({ aggregate: 1 }) reads no collection.
  if (coll !== '') needed.unshift(need(ns(db, coll), 'find'));
  if (cmd.bypassDocumentValidation === true) needed.push(need(ns(db, coll), 'bypassDocumentValidation'));
  return [needed];
};

const insertPrivileges: CommandPrivileges = (db, cmd) => {
  const needed = [need(ns(db, target(cmd)), 'insert')];
  if (cmd.bypassDocumentValidation === true) needed.push(need(ns(db, target(cmd)), 'bypassDocumentValidation'));
  return [needed];
};

const updatePrivileges: CommandPrivileges = (db, cmd) => {
  const r = ns(db, target(cmd));
  const upsert = Array.isArray(cmd.updates) && (cmd.updates as unknown[]).some((u) => typeof u === 'object' && u !== null && (u as Document).upsert === true);
  const needed = [need(r, 'update')];
  if (upsert) needed.push(need(r, 'insert'));
  if (cmd.bypassDocumentValidation === true) needed.push(need(r, 'bypassDocumentValidation'));
  return [needed];
};

const findAndModifyPrivileges: CommandPrivileges = (db, cmd) => {
  const r = ns(db, target(cmd));
  const actions = ['find', cmd.remove === true ? 'remove' : 'update'];
  if (cmd.upsert === true) actions.push('insert');
  if (cmd.bypassDocumentValidation === true) actions.push('bypassDocumentValidation');
  return [[need(r, ...actions)]];
};

const bulkWritePrivileges: CommandPrivileges = (_db, cmd) => {
  const nsInfo = Array.isArray(cmd.nsInfo) ? (cmd.nsInfo as Document[]) : [];
  const ops = Array.isArray(cmd.ops) ? (cmd.ops as Document[]) : [];
  const actionsByIndex = new Map<number, Set<string>>();
  for (const op of ops) {
    if (typeof op !== 'object' || op === null) continue;
    const [kind] = Object.keys(op);
    const index = Number(op[kind!]);
    const set = actionsByIndex.get(index) ?? new Set<string>();
    if (kind === 'insert') set.add('insert');
    else if (kind === 'update') {
      set.add('update');
      if (op.upsert === true) set.add('insert');
    } else if (kind === 'delete') set.add('remove');
    actionsByIndex.set(index, set);
  }
  const needed: Needed[] = [];
  nsInfo.forEach((info, i) => {
    const [d, c] = splitNs(typeof info?.ns === 'string' ? info.ns : '');
    const actions = [...(actionsByIndex.get(i) ?? [])];
    if (cmd.bypassDocumentValidation === true) actions.push('bypassDocumentValidation');
    if (actions.length > 0) needed.push(need(ns(d, c), ...actions));
  });
  return [needed];
};

const renamePrivileges: CommandPrivileges = (_db, cmd) => {
  const [fromDb, fromColl] = splitNs(target(cmd));
  const [toDb, toColl] = splitNs(typeof cmd.to === 'string' ? cmd.to : '');
  if (fromDb === toDb) {
    const sameDb: Needed[] = [need(ns(fromDb, fromColl), 'renameCollectionSameDB'), need(ns(toDb, toColl), 'renameCollectionSameDB')];
    if (cmd.dropTarget === true) sameDb.push(need(ns(toDb, toColl), 'dropCollection'));
    return [sameDb];
  }
  const needed: Needed[] = [need(ns(fromDb, fromColl), 'find', 'dropCollection'), need(ns(toDb, toColl), 'insert', 'createIndex')];
  if (cmd.dropTarget === true) needed.push(need(ns(toDb, toColl), 'dropCollection'));
  return [needed];
};

/** The explained command's own privileges. */
const explainPrivileges: CommandPrivileges = (db, cmd, session) => {
  const inner = cmd.explain;
  if (typeof inner !== 'object' || inner === null) return [[need(ns(db, ''), 'find')]];
  const [name] = Object.keys(inner);
  const entry = name === undefined ? undefined : COMMAND_PRIVILEGES[name];
  if (entry === undefined || entry === NO_AUTH || name === 'explain') return [];
  return entry(db, inner as Document, session);
};

/** The user named by a usersInfo / rolesInfo argument, `{ user, db }` or a string in `db`. */
function isOwnUser(db: string, cmd: Document, session: AuthorizationSession): boolean {
  const me = session.user;
  if (!me) return false;
  const arg = cmd.usersInfo;
  const names = Array.isArray(arg) ? arg : [arg];
  if (names.length === 0) return false;
  return names.every((n) => {
    if (typeof n === 'string') return n === me.user && db === me.db;
    if (typeof n === 'object' && n !== null) return (n as Document).user === me.user && (n as Document).db === me.db;
    return false;
  });
}

const usersInfoPrivileges: CommandPrivileges = (db, cmd, session) => {
  if (isOwnUser(db, cmd, session)) return [];
  const arg = cmd.usersInfo;
  if (typeof arg === 'object' && arg !== null && !Array.isArray(arg) && (arg as Document).forAllDBs === true) {
    return [[need(CLUSTER, 'viewUser')], [need(ns('', ''), 'viewUser')]];
  }
  const dbs = new Set<string>([db]);
  for (const n of Array.isArray(arg) ? arg : [arg]) {
    if (typeof n === 'object' && n !== null && typeof (n as Document).db === 'string') dbs.add((n as Document).db as string);
  }
  return [[...dbs].map((d) => need(ns(d, ''), 'viewUser'))];
};

const rolesInfoPrivileges: CommandPrivileges = (db, cmd, session) => {
  const arg = cmd.rolesInfo;
  const held = new Set(session.allRoles().map((r) => `${r.db}.${r.role}`));
  const names = Array.isArray(arg) ? arg : [arg];
  const all = names.length > 0 && names.every((n) => {
    if (typeof n === 'string') return held.has(`${db}.${n}`);
    if (typeof n === 'object' && n !== null) return held.has(`${String((n as Document).db)}.${String((n as Document).role)}`);
    return false;
  });
  if (all) return [];
  const dbs = new Set<string>([db]);
  for (const n of names) if (typeof n === 'object' && n !== null && typeof (n as Document).db === 'string') dbs.add((n as Document).db as string);
  return [[...dbs].map((d) => need(ns(d, ''), 'viewRole'))];
};

/** updateUser: a password change by the user themself needs changeOwnPassword. */
const updateUserPrivileges: CommandPrivileges = (db, cmd, session) => {
  const me = session.user;
  const own = me !== null && me.user === target(cmd) && me.db === db;
  const needed: Needed[] = [];
  const dbRes = ns(db, '');
  if (cmd.pwd !== undefined) needed.push(need(dbRes, own ? 'changeOwnPassword' : 'changePassword'));
  if (cmd.customData !== undefined) needed.push(need(dbRes, own ? 'changeOwnCustomData' : 'changeCustomData'));
  if (cmd.roles !== undefined) {
    needed.push(need(dbRes, 'revokeRole'));
    for (const d of roleDbs(db, cmd, 'roles')) needed.push(need(ns(d, ''), 'grantRole'));
  }
  if (cmd.authenticationRestrictions !== undefined) needed.push(need(dbRes, 'setAuthenticationRestriction'));
  const alternatives: Requirement[] = [needed];
  // A user may always change their own password given the right action; a user admin may change anyone's.
  if (own) alternatives.push(needed.map((n) => ({ resource: n.resource, actions: n.actions.map((a) => a.replace('Own', '')) })));
  return alternatives;
};

/** The table: every command of the catalogue (src/commands/catalogue.ts), by canonical name. */
export const COMMAND_PRIVILEGES: Readonly<Record<string, CommandAuth>> = {
  abortTransaction: anyUser,
  aggregate: aggregatePrivileges,
  analyze: onCollection('analyze'),
  authenticate: NO_AUTH,
  autoCompact: onCluster('compact'),
  buildInfo: NO_AUTH,
  bulkWrite: bulkWritePrivileges,
  checkShardingIndex: onCollection('find'),
  cloneCollectionAsCapped: (db, cmd) => [[need(ns(db, target(cmd)), 'find'), need(ns(db, typeof cmd.toCollection === 'string' ? cmd.toCollection : ''), 'insert', 'createCollection')]],
  collMod: onCollection('collMod'),
  collStats: onCollection('collStats'),
  commitTransaction: anyUser,
  compact: onCollection('compact'),
  compactStructuredEncryptionData: onCollection('compactStructuredEncryptionData'),
  configureFailPoint: anyUser,
  connPoolStats: onCluster('connPoolStats'),
  connectionStatus: NO_AUTH,
  convertToCapped: onCollection('convertToCapped'),
  count: onCollection('find'),
  create: (db, cmd) => [[need(ns(db, target(cmd)), 'createCollection')], [need(ns(db, target(cmd)), 'insert')]],
  createIndexes: onCollection('createIndex'),
  createRole: (db, cmd) => {
    const needed: Needed[] = [need(ns(db, ''), 'createRole')];
    for (const d of roleDbs(db, cmd, 'roles')) needed.push(need(ns(d, ''), 'grantRole'));
    if (Array.isArray(cmd.privileges) && cmd.privileges.length > 0) needed.push(need(ns(db, ''), 'grantRole'));
    return [needed];
  },
  createSearchIndexes: onCollection('createSearchIndexes'),
  createUser: userAdmin('createUser', 'grantRole'),
  currentOp: onCluster('inprog'),
  dataSize: (db, cmd) => {
    const [d, c] = splitNs(target(cmd));
    return [[need(ns(d || db, c), 'find')]];
  },
  dbHash: onDatabase('dbHash'),
  dbStats: onDatabase('dbStats'),
  delete: onCollection('remove'),
  distinct: onCollection('find'),
  drop: onCollection('dropCollection'),
  dropAllRolesFromDatabase: onDatabase('dropRole'),
  dropAllUsersFromDatabase: onDatabase('dropUser'),
  dropConnections: onCluster('dropConnections'),
  dropDatabase: onDatabase('dropDatabase'),
  dropIndexes: onCollection('dropIndex'),
  dropRole: onDatabase('dropRole'),
  dropSearchIndex: onCollection('dropSearchIndex'),
  dropUser: onDatabase('dropUser'),
  endSessions: anyUser,
  explain: explainPrivileges,
  filemd5: (db, cmd) => [[need(ns(db, `${typeof cmd.root === 'string' ? cmd.root : 'fs'}.chunks`), 'find')]],
  find: onCollection('find'),
  findAndModify: findAndModifyPrivileges,
  fsync: onCluster('fsync'),
  fsyncUnlock: onCluster('unlock'),
  getClusterParameter: onCluster('getClusterParameter'),
  getCmdLineOpts: onCluster('getCmdLineOpts'),
  getDefaultRWConcern: onCluster('getDefaultRWConcern'),
  getLastRequestStatistics: anyUser,
  getLog: onCluster('getLog'),
  getMore: anyUser,
  getParameter: onCluster('getParameter'),
  getnonce: NO_AUTH,
  grantPrivilegesToRole: onDatabase('grantRole'),
  grantRolesToRole: userAdmin('grantRole', 'grantRole'),
  grantRolesToUser: (db, cmd) => [roleDbs(db, cmd, 'roles').map((d) => need(ns(d, ''), 'grantRole'))],
  hello: NO_AUTH,
  hostInfo: onCluster('hostInfo'),
  insert: insertPrivileges,
  invalidateUserCache: onCluster('invalidateUserCache'),
  isMaster: NO_AUTH,
  killAllSessions: onCluster('killAnySession'),
  killAllSessionsByPattern: onCluster('killAnySession'),
  killCursors: anyUser,
  killOp: onCluster('killop'),
  killSessions: anyUser,
  listCollections: (db, cmd) => (cmd.authorizedCollections === true && cmd.nameOnly === true ? [] : [[need(ns(db, ''), 'listCollections')]]),
  listCommands: anyUser,
  listDatabases: anyUser,
  listIndexes: onCollection('listIndexes'),
  listSearchIndexes: onCollection('listSearchIndexes'),
  lockInfo: onCluster('serverStatus'),
  logRotate: onCluster('logRotate'),
  logout: NO_AUTH,
  mapReduce: (db, cmd) => {
    const out = cmd.out;
    const needed: Needed[] = [need(ns(db, target(cmd)), 'find')];
    if (typeof out === 'string') needed.push(need(ns(db, out), 'insert', 'remove'));
    else if (typeof out === 'object' && out !== null && (out as Document).inline === undefined) {
      const o = out as Document;
      const coll = String(o.replace ?? o.merge ?? o.reduce ?? '');
      needed.push(need(ns(typeof o.db === 'string' ? o.db : db, coll), 'insert', 'remove', 'update'));
    }
    return [needed];
  },
  ping: NO_AUTH,
  planCacheClear: onCollection('planCacheWrite'),
  planCacheClearFilters: onCollection('planCacheIndexFilter'),
  planCacheListFilters: onCollection('planCacheIndexFilter'),
  planCacheSetFilter: onCollection('planCacheIndexFilter'),
  profile: onDatabase('enableProfiler'),
  reIndex: onCollection('reIndex'),
  refreshSessions: anyUser,
  renameCollection: renamePrivileges,
  replSetFreeze: onCluster('replSetStateChange'),
  replSetGetConfig: onCluster('replSetGetConfig'),
  replSetGetRBID: onCluster('internal'),
  replSetGetStatus: onCluster('replSetGetStatus'),
  replSetInitiate: onCluster('replSetConfigure'),
  replSetReconfig: onCluster('replSetConfigure'),
  replSetStepDown: onCluster('replSetStateChange'),
  revokePrivilegesFromRole: onDatabase('revokeRole'),
  revokeRolesFromRole: userAdmin('revokeRole', 'revokeRole'),
  removeQuerySettings: onCluster('querySettings'),
  revokeRolesFromUser: (db, cmd) => [roleDbs(db, cmd, 'roles').map((d) => need(ns(d, ''), 'revokeRole'))],
  rolesInfo: rolesInfoPrivileges,
  saslContinue: NO_AUTH,
  saslStart: NO_AUTH,
  serverStatus: onCluster('serverStatus'),
  setClusterParameter: onCluster('setClusterParameter'),
  setFeatureCompatibilityVersion: onCluster('setFeatureCompatibilityVersion'),
  setIndexCommitQuorum: onCollection('createIndex'),
  setParameter: onCluster('setParameter'),
  setQuerySettings: onCluster('querySettings'),
  shutdown: onCluster('shutdown'),
  startSession: anyUser,
  top: onCluster('top'),
  update: updatePrivileges,
  updateRole: (db, cmd) => {
    const needed: Needed[] = [need(ns(db, ''), 'grantRole', 'revokeRole')];
    for (const d of roleDbs(db, cmd, 'roles')) needed.push(need(ns(d, ''), 'grantRole'));
    return [needed];
  },
  updateSearchIndex: onCollection('updateSearchIndex'),
  updateUser: updateUserPrivileges,
  usersInfo: usersInfoPrivileges,
  validate: onCollection('validate'),
  validateDBMetadata: onDatabase('validate'),
  whatsmyuri: anyUser,
  // Mayfly's own commands.
  getRange: onCollection('find'),
  getRow: onCollection('find'),
  mayflyAdvanceClock: anyUser,
  mayflyClock: anyUser,
  mayflyRunTtlPass: anyUser,
  putRow: onCollection('insert', 'update'),
};
