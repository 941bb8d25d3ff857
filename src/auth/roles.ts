/**
 * The built-in roles and their privileges, after mongod's `builtin_roles` (mongo/src/mongo/db/
 * auth/builtin_roles.yml), and role resolution: a role's own privileges plus those of every role
 * it inherits, custom roles (admin.system.roles) included.
 */
import { ANY_RESOURCE, CLUSTER, mergePrivileges, ns, type Privilege } from './privileges.js';

/** A role name `{ role, db }`. */
export interface RoleName {
  readonly role: string;
  readonly db: string;
}

/** `role@db`, as mongod writes a role name in messages. */
export function roleNameString(r: RoleName): string {
  return `${r.role}@${r.db}`;
}

/** A role's own definition (built-in or custom): its privileges and the roles it inherits. */
export interface RoleDefinition {
  readonly name: RoleName;
  readonly privileges: readonly Privilege[];
  readonly roles: readonly RoleName[];
  readonly isBuiltin: boolean;
}

const READ_ACTIONS = ['changeStream', 'collStats', 'dbHash', 'dbStats', 'find', 'killCursors', 'listCollections', 'listIndexes', 'listSearchIndexes', 'planCacheRead'];
const READ_WRITE_ACTIONS = [
  ...READ_ACTIONS,
  'convertToCapped', 'createCollection', 'createIndex', 'createSearchIndexes', 'dropCollection', 'dropIndex',
  'dropSearchIndex', 'insert', 'remove', 'renameCollectionSameDB', 'update', 'updateSearchIndex',
];
const USER_ADMIN_ACTIONS = [
  'changeCustomData', 'changePassword', 'createRole', 'createUser', 'dropRole', 'dropUser', 'grantRole',
  'revokeRole', 'setAuthenticationRestriction', 'viewRole', 'viewUser',
];
const DB_ADMIN_ACTIONS = [
  'analyze', 'bypassDocumentValidation', 'collMod', 'collStats', 'compact', 'convertToCapped', 'createCollection',
  'createIndex', 'dbStats', 'dropCollection', 'dropDatabase', 'dropIndex', 'enableProfiler', 'listCollections',
  'listIndexes', 'listSearchIndexes', 'planCacheIndexFilter', 'planCacheRead', 'planCacheWrite', 'reIndex',
  'renameCollectionSameDB', 'storageDetails', 'validate',
];
const CLUSTER_MONITOR_CLUSTER_ACTIONS = [
  'checkFreeMonitoringStatus', 'connPoolStats', 'getCmdLineOpts', 'getDefaultRWConcern', 'getLog', 'getParameter',
  'getShardMap', 'hostInfo', 'inprog', 'listDatabases', 'listSessions', 'listShards', 'netstat', 'operationMetrics',
  'replSetGetConfig', 'replSetGetStatus', 'serverStatus', 'shardingState', 'top', 'useUUID',
];
const CLUSTER_MONITOR_DB_ACTIONS = ['collStats', 'dbStats', 'getDatabaseVersion', 'getShardVersion', 'indexStats'];
const CLUSTER_MANAGER_CLUSTER_ACTIONS = [
  'addShard', 'appendOplogNote', 'applicationMessage', 'cleanupOrphaned', 'flushRouterConfig', 'listSessions',
  'listShards', 'removeShard', 'replSetConfigure', 'replSetGetConfig', 'replSetGetStatus', 'replSetStateChange',
  'resync', 'setDefaultRWConcern', 'setFeatureCompatibilityVersion', 'setFreeMonitoring',
];
const CLUSTER_MANAGER_DB_ACTIONS = ['clearJumboFlag', 'enableSharding', 'moveChunk', 'refineCollectionShardKey', 'reshardCollection', 'splitChunk', 'splitVector'];
const HOST_MANAGER_CLUSTER_ACTIONS = [
  'applicationMessage', 'connPoolSync', 'dropConnections', 'flushRouterConfig', 'fsync', 'invalidateUserCache',
  'killAnyCursor', 'killAnySession', 'killop', 'logRotate', 'resync', 'rotateCertificates', 'setParameter',
  'shutdown', 'touch', 'unlock',
];
const HOST_MANAGER_DB_ACTIONS = ['killCursors'];
const BACKUP_CLUSTER_ACTIONS = ['appendOplogNote', 'getParameter', 'listDatabases', 'serverStatus', 'setUserWriteBlockMode'];
const BACKUP_DB_ACTIONS = ['collStats', 'dbHash', 'find', 'listCollections', 'listIndexes'];
const RESTORE_DB_ACTIONS = [
  'bypassDocumentValidation', 'changeCustomData', 'changePassword', 'collMod', 'convertToCapped', 'createCollection',
  'createIndex', 'createRole', 'createUser', 'dropCollection', 'dropRole', 'dropUser', 'grantRole', 'insert',
  'revokeRole', 'viewRole', 'viewUser',
];

const p = (resource: Privilege['resource'], actions: readonly string[]): Privilege => ({ resource, actions: new Set(actions) });
const ANY_DB = ns('', '');

/** The roles of every database. */
const DATABASE_ROLES: Record<string, (db: string) => { privileges: Privilege[]; roles: string[] }> = {
  read: (db) => ({
    privileges: [p(ns(db, ''), READ_ACTIONS), p(ns(db, 'system.indexes'), READ_ACTIONS), p(ns(db, 'system.js'), READ_ACTIONS), p(ns(db, 'system.namespaces'), READ_ACTIONS)],
    roles: [],
  }),
  readWrite: (db) => ({
    privileges: [
      p(ns(db, ''), READ_WRITE_ACTIONS),
      p(ns(db, 'system.indexes'), READ_ACTIONS),
      p(ns(db, 'system.js'), READ_WRITE_ACTIONS),
      p(ns(db, 'system.namespaces'), READ_ACTIONS),
    ],
    roles: [],
  }),
  dbAdmin: (db) => ({
    privileges: [
      p(ns(db, ''), DB_ADMIN_ACTIONS),
      p(ns(db, 'system.indexes'), READ_ACTIONS),
      p(ns(db, 'system.namespaces'), READ_ACTIONS),
      p(ns(db, 'system.profile'), [...READ_ACTIONS, 'dropCollection', 'createCollection', 'convertToCapped']),
    ],
    roles: [],
  }),
  userAdmin: (db) => ({ privileges: [p(ns(db, ''), USER_ADMIN_ACTIONS)], roles: [] }),
  dbOwner: (db) => ({ privileges: [], roles: ['readWrite', 'dbAdmin', 'userAdmin'] }),
  enableSharding: () => ({ privileges: [p(CLUSTER, ['enableSharding'])], roles: [] }),
};

/** The roles that exist only in `admin`. */
const ADMIN_ROLES: Record<string, { privileges: Privilege[]; roles: string[] }> = {
  __system: { privileges: [p(ANY_RESOURCE, ['anyAction'])], roles: [] },
  backup: { privileges: [p(CLUSTER, BACKUP_CLUSTER_ACTIONS), p(ANY_DB, BACKUP_DB_ACTIONS), p(ANY_RESOURCE, ['collStats', 'find', 'listCollections', 'listIndexes'])], roles: [] },
  clusterAdmin: { privileges: [p(ANY_DB, ['dropDatabase'])], roles: ['clusterManager', 'clusterMonitor', 'hostManager'] },
  clusterManager: { privileges: [p(CLUSTER, CLUSTER_MANAGER_CLUSTER_ACTIONS), p(ANY_DB, CLUSTER_MANAGER_DB_ACTIONS)], roles: [] },
  clusterMonitor: {
    privileges: [p(CLUSTER, CLUSTER_MONITOR_CLUSTER_ACTIONS), p(ANY_DB, CLUSTER_MONITOR_DB_ACTIONS), p(ns('', 'system.profile'), ['find'])],
    roles: [],
  },
  dbAdminAnyDatabase: { privileges: [p(ANY_DB, DB_ADMIN_ACTIONS), p(CLUSTER, ['listDatabases']), p(ns('', 'system.profile'), [...READ_ACTIONS, 'dropCollection', 'createCollection'])], roles: [] },
  hostManager: { privileges: [p(CLUSTER, HOST_MANAGER_CLUSTER_ACTIONS), p(ANY_DB, HOST_MANAGER_DB_ACTIONS)], roles: [] },
  readAnyDatabase: { privileges: [p(ANY_DB, READ_ACTIONS), p(CLUSTER, ['listDatabases']), p(ns('', 'system.js'), READ_ACTIONS)], roles: [] },
  readWriteAnyDatabase: { privileges: [p(ANY_DB, READ_WRITE_ACTIONS), p(CLUSTER, ['listDatabases']), p(ns('', 'system.js'), READ_WRITE_ACTIONS)], roles: [] },
  restore: {
    privileges: [
      p(ANY_DB, RESTORE_DB_ACTIONS),
      p(CLUSTER, ['getParameter']),
      p(ns('', 'system.js'), ['insert', 'update', 'remove', 'find', 'createCollection', 'createIndex']),
      p(ns('admin', 'system.users'), ['insert', 'update', 'remove', 'find', 'createCollection', 'createIndex']),
      p(ns('admin', 'system.roles'), ['insert', 'update', 'remove', 'find', 'createCollection', 'createIndex']),
    ],
    roles: [],
  },
  root: {
    privileges: [p(ANY_RESOURCE, ['validate']), p(ns('', 'system.js'), READ_WRITE_ACTIONS)],
    roles: ['backup', 'clusterAdmin', 'dbAdminAnyDatabase', 'readWriteAnyDatabase', 'restore', 'userAdminAnyDatabase'],
  },
  userAdminAnyDatabase: {
    privileges: [
      p(ANY_DB, USER_ADMIN_ACTIONS),
      p(CLUSTER, ['authSchemaUpgrade', 'invalidateUserCache', 'listDatabases', 'viewUser', 'viewRole']),
      p(ns('admin', 'system.users'), ['collStats', 'dbHash', 'find', 'killCursors', 'planCacheRead', 'createIndex', 'dropIndex']),
      p(ns('admin', 'system.roles'), ['collStats', 'dbHash', 'find', 'killCursors', 'planCacheRead', 'createIndex', 'dropIndex']),
      p(ns('admin', 'system.version'), ['collStats', 'dbHash', 'find', 'killCursors', 'planCacheRead']),
    ],
    roles: [],
  },
};

/** The names of the built-in roles of `db`, sorted. */
export function builtinRoleNames(db: string): string[] {
  const names = Object.keys(DATABASE_ROLES);
  if (db === 'admin') names.push(...Object.keys(ADMIN_ROLES));
  return names.sort();
}

/** Whether `name` is a built-in role. */
export function isBuiltinRole(name: RoleName): boolean {
  return Object.hasOwn(DATABASE_ROLES, name.role) || (name.db === 'admin' && Object.hasOwn(ADMIN_ROLES, name.role));
}

/** Whether `role` names a built-in role in some database (a custom role may not take it). */
export function isBuiltinRoleName(role: string): boolean {
  return Object.hasOwn(DATABASE_ROLES, role) || Object.hasOwn(ADMIN_ROLES, role);
}

/** The built-in role `name`, or undefined. */
export function builtinRole(name: RoleName): RoleDefinition | undefined {
  const perDb = Object.hasOwn(DATABASE_ROLES, name.role) ? DATABASE_ROLES[name.role]!(name.db) : undefined;
  const def = perDb ?? (name.db === 'admin' && Object.hasOwn(ADMIN_ROLES, name.role) ? ADMIN_ROLES[name.role] : undefined);
  if (!def) return undefined;
  return { name, privileges: def.privileges, roles: def.roles.map((role) => ({ role, db: name.db })), isBuiltin: true };
}

/** What a set of roles amounts to: every role reached and the merged privileges. */
export interface ResolvedRoles {
  /** Every role reached, the given ones first, each once. */
  readonly roles: readonly RoleName[];
  readonly privileges: readonly Privilege[];
}

/**
 * Resolves `roots` through inheritance: `lookup` finds a role (built-in or custom); roles it
 * cannot find are skipped (a dropped role grants nothing), and each role is visited once.
 */
export function resolveRoles(roots: readonly RoleName[], lookup: (name: RoleName) => RoleDefinition | undefined): ResolvedRoles {
  const seen = new Set<string>();
  const roles: RoleName[] = [];
  const privileges: Privilege[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.shift()!;
    const key = roleNameString(name);
    if (seen.has(key)) continue;
    seen.add(key);
    const def = lookup(name);
    if (!def) continue;
    roles.push(name);
    privileges.push(...def.privileges);
    queue.push(...def.roles);
  }
  return { roles, privileges: mergePrivileges(privileges) };
}
