/**
 * Privileges as mongod models them: a resource pattern and a set of action names
 * (mongo/src/mongo/db/auth/privilege.h, resource_pattern.h, action_type.idl).
 *
 * A resource pattern is one of
 *   - `{ db, collection }` exact namespace;
 *   - `{ db, collection: '' }` every normal collection of `db` (and the database itself);
 *   - `{ db: '', collection }` that collection name in every database;
 *   - `{ db: '', collection: '' }` every normal resource (not `system.*`);
 *   - `{ cluster: true }` the cluster;
 *   - `{ anyResource: true }` everything, system collections included.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';

/** mongod's action names (action_type.idl), sorted. */
export const ACTION_TYPES: readonly string[] = [
  'addShard', 'analyze', 'analyzeShardKey', 'anyAction', 'appendOplogNote', 'applicationMessage',
  'auditConfigure', 'auditLogRotate', 'authCheck', 'authSchemaUpgrade', 'bypassDefaultMaxTimeMS',
  'bypassDocumentValidation', 'bypassWriteBlockingMode', 'changeCustomData', 'changeOwnCustomData',
  'changeOwnPassword', 'changePassword', 'changeStream', 'checkFreeMonitoringStatus',
  'checkMetadataConsistency', 'cleanupOrphaned', 'clearJumboFlag', 'closeAllDatabases', 'collMod',
  'collStats', 'compact', 'compactStructuredEncryptionData', 'configureQueryAnalyzer', 'connPoolStats',
  'connPoolSync', 'convertToCapped', 'cpuProfiler', 'createCollection', 'createDatabase', 'createIndex',
  'createRole', 'createSearchIndexes', 'createUser', 'dbCheck', 'dbHash', 'dbStats', 'dropAllRolesFromDatabase',
  'dropAllUsersFromDatabase', 'dropCollection', 'dropConnections', 'dropDatabase', 'dropIndex', 'dropRole',
  'dropSearchIndex', 'dropUser', 'enableProfiler', 'enableSharding', 'exportCollection', 'find',
  'flushRouterConfig', 'forceUUID', 'fsync', 'getClusterParameter', 'getCmdLineOpts', 'getDatabaseVersion',
  'getDefaultRWConcern', 'getLog', 'getParameter', 'getShardMap', 'getShardVersion', 'grantPrivilegesToRole',
  'grantRole', 'grantRolesToRole', 'grantRolesToUser', 'hostInfo', 'impersonate', 'importCollection',
  'indexStats', 'inprog', 'insert', 'internal', 'invalidateUserCache', 'killAnyCursor', 'killAnySession',
  'killCursors', 'killop', 'listCachedAndActiveUsers', 'listCollections', 'listCursors', 'listDatabases',
  'listIndexes', 'listSearchIndexes', 'listSessions', 'listShards', 'logRotate', 'moveChunk', 'moveCollection',
  'netstat', 'oidReset', 'operationMetrics', 'planCacheIndexFilter', 'planCacheRead', 'planCacheWrite',
  'querySettings', 'queryStatsRead', 'queryStatsReadTransformed', 'reIndex', 'refineCollectionShardKey',
  'remove', 'removeShard', 'renameCollection', 'renameCollectionSameDB', 'replSetConfigure',
  'replSetGetConfig', 'replSetGetStatus', 'replSetHeartbeat', 'replSetReconfig', 'replSetResizeOplog',
  'replSetStateChange', 'reshardCollection', 'resync', 'revokePrivilegesFromRole', 'revokeRole',
  'revokeRolesFromRole', 'revokeRolesFromUser', 'rotateCertificates', 'runAsLessPrivilegedUser',
  'serverStatus', 'setAuthenticationRestriction', 'setClusterParameter', 'setDefaultRWConcern',
  'setFeatureCompatibilityVersion', 'setFreeMonitoring', 'setParameter', 'setUserWriteBlockMode',
  'shardCollection', 'shardingState', 'shutdown', 'splitChunk', 'splitVector', 'storageDetails', 'top',
  'touch', 'trafficRecord', 'unlock', 'unshardCollection', 'update', 'updateRole', 'updateSearchIndex',
  'updateUser', 'useUUID', 'validate', 'viewRole', 'viewUser',
];
const ACTION_SET: ReadonlySet<string> = new Set(ACTION_TYPES);

/** A resource pattern. */
export type Resource =
  | { readonly kind: 'namespace'; readonly db: string; readonly collection: string }
  | { readonly kind: 'cluster' }
  | { readonly kind: 'any' };

/** One privilege: actions on a resource. */
export interface Privilege {
  readonly resource: Resource;
  readonly actions: ReadonlySet<string>;
}

/** The resource `{ db, collection }` (either may be '' as a wildcard). */
export function ns(db: string, collection: string): Resource {
  return { kind: 'namespace', db, collection };
}
/** The cluster resource. */
export const CLUSTER: Resource = { kind: 'cluster' };
/** Every resource. */
export const ANY_RESOURCE: Resource = { kind: 'any' };

/** Whether `collection` is a normal collection (not `system.*`). */
function isNormal(collection: string): boolean {
  return !collection.startsWith('system.');
}

/**
 * Whether a privilege on `granted` covers a request on `requested` (`requested` is an exact
 * namespace, a database `{ db, collection: '' }`, or the cluster), as mongod's
 * `ResourcePattern::matchesForResource` lattice.
 */
export function covers(granted: Resource, requested: Resource): boolean {
  if (granted.kind === 'any') return true;
  if (granted.kind === 'cluster') return requested.kind === 'cluster';
  if (requested.kind !== 'namespace') return false;
  const coll = requested.collection;
  if (coll === '') {
    // A database resource: matched by a database pattern or any-normal.
    return granted.collection === '' && (granted.db === '' || granted.db === requested.db);
  }
  if (granted.db !== '' && granted.collection !== '') return granted.db === requested.db && granted.collection === coll;
  if (!isNormal(coll)) return false;
  if (granted.collection === '') return granted.db === '' || granted.db === requested.db;
  return granted.collection === coll;
}

/** A privilege as a document `{ resource, actions }` (actions sorted, as mongod lists them). */
export function privilegeToDocument(p: Privilege): Document {
  return { resource: resourceToDocument(p.resource), actions: [...p.actions].sort() };
}

/** A resource as a document. */
export function resourceToDocument(r: Resource): Document {
  if (r.kind === 'cluster') return { cluster: true };
  if (r.kind === 'any') return { anyResource: true };
  return { db: r.db, collection: r.collection };
}

function resourceKey(r: Resource): string {
  return r.kind === 'namespace' ? `ns:${r.db}\u0000${r.collection}` : r.kind;
}

/** Merges privileges on the same resource (order of first appearance kept). */
export function mergePrivileges(list: Iterable<Privilege>): Privilege[] {
  const byKey = new Map<string, { resource: Resource; actions: Set<string> }>();
  for (const p of list) {
    const key = resourceKey(p.resource);
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { resource: p.resource, actions: new Set() }));
    for (const a of p.actions) entry.actions.add(a);
  }
  return [...byKey.values()];
}

/** Removes `actions` on each of `remove`'s resources from `list` (revokePrivilegesFromRole). */
export function subtractPrivileges(list: readonly Privilege[], remove: readonly Privilege[]): Privilege[] {
  const out: Privilege[] = [];
  for (const p of list) {
    const key = resourceKey(p.resource);
    const actions = new Set(p.actions);
    for (const r of remove) if (resourceKey(r.resource) === key) for (const a of r.actions) actions.delete(a);
    if (actions.size > 0) out.push({ resource: p.resource, actions });
  }
  return out;
}

function isPlainDocument(v: unknown): v is Document {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { _bsontype?: unknown })._bsontype === undefined;
}

/** Parses one `{ resource, actions }` document as createRole/grantPrivilegesToRole take it. */
export function parsePrivilege(doc: unknown): Privilege {
  if (!isPlainDocument(doc)) throw new CommandError('BadValue', 'Each element of privileges must be an object');
  for (const key of Object.keys(doc)) {
    if (key !== 'resource' && key !== 'actions') throw new CommandError('BadValue', `Unrecognized field: ${key} in privilege document`);
  }
  if (!isPlainDocument(doc.resource)) throw new CommandError('BadValue', "Privilege document must contain a 'resource' field of type object");
  if (!Array.isArray(doc.actions)) throw new CommandError('BadValue', "Privilege document must contain an 'actions' field of type array");
  const resource = parseResource(doc.resource);
  const actions = new Set<string>();
  for (const a of doc.actions) {
    if (typeof a !== 'string') throw new CommandError('BadValue', 'Actions in a privilege document must be strings');
    if (!ACTION_SET.has(a)) throw new CommandError('BadValue', `Unrecognized action privilege string: ${a}`);
    actions.add(a);
  }
  if (actions.size === 0) throw new CommandError('BadValue', 'Privilege must have at least one action');
  return { resource, actions };
}

function parseResource(doc: Document): Resource {
  const keys = Object.keys(doc);
  if (doc.cluster !== undefined) {
    if (doc.cluster !== true || keys.length !== 1) throw new CommandError('BadValue', "resource: {cluster: true} must be the only field of the resource document");
    return CLUSTER;
  }
  if (doc.anyResource !== undefined) {
    if (doc.anyResource !== true || keys.length !== 1) throw new CommandError('BadValue', "resource: {anyResource: true} must be the only field of the resource document");
    return ANY_RESOURCE;
  }
  for (const key of keys) {
    if (key !== 'db' && key !== 'collection') throw new CommandError('BadValue', `Unrecognized field: ${key} in resource document`);
  }
  if (typeof doc.db !== 'string' || typeof doc.collection !== 'string') {
    throw new CommandError('BadValue', "resource pattern must contain 'db' and 'collection' fields of type string");
  }
  return ns(doc.db, doc.collection);
}

/** Parses a stored privilege (trusted: from admin.system.roles). */
export function privilegeFromDocument(doc: Document): Privilege {
  const r = doc.resource as Document;
  const resource = r.cluster === true ? CLUSTER : r.anyResource === true ? ANY_RESOURCE : ns(String(r.db), String(r.collection));
  return { resource, actions: new Set((doc.actions as unknown[]).map(String)) };
}

/** How many answers a PrivilegeSet remembers before it starts again. */
const MEMO_ENTRIES = 4096;

/** A compiled set of privileges: answers whether an action on a resource is allowed. */
export class PrivilegeSet {
  private readonly list: readonly Privilege[];

  constructor(list: readonly Privilege[]) {
    this.list = list;
  }

  /** The privileges, merged by resource. */
  get privileges(): readonly Privilege[] {
    return this.list;
  }

  /** Whether every one of `actions` is allowed on `resource` (by any privilege, together). */
  allows(resource: Resource, actions: readonly string[]): boolean {
    for (const action of actions) if (!this.allowsOne(resource, action)) return false;
    return true;
  }

  /**
   * Whether some privilege names a resource in database `db` (the database, a collection of it,
   * every database, a collection name in every database, or anything): mongod's
   * isAuthorizedForAnyActionOnAnyResourceInDB, which decides what listDatabases shows.
   */
  anyOnDatabase(db: string): boolean {
    return this.list.some((p) => p.actions.size > 0 && (p.resource.kind === 'any' || (p.resource.kind === 'namespace' && (p.resource.db === '' || p.resource.db === db))));
  }

  /** Answers already computed, by action and resource (a connection asks the same few again and again). */
  private readonly memo = new Map<string, boolean>();

  private allowsOne(resource: Resource, action: string): boolean {
    const key = resource.kind === 'namespace' ? `${action}\u0000${resource.db}\u0000${resource.collection}` : `${action}\u0000${resource.kind}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    let allowed = false;
    for (const p of this.list) {
      if ((p.actions.has(action) || p.actions.has('anyAction')) && covers(p.resource, resource)) {
        allowed = true;
        break;
      }
    }
    if (this.memo.size >= MEMO_ENTRIES) this.memo.clear();
    this.memo.set(key, allowed);
    return allowed;
  }
}
