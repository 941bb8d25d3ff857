/**
 * Role resolution (built-in roles through inheritance, custom roles, cycles visited once), the
 * resource lattice of privileges, and the action table: every command of the catalogue has an
 * entry, and the entries name real actions.
 */
import { describe, expect, test } from 'vitest';
import { COMMAND_PRIVILEGES, NO_AUTH } from '../../../src/auth/actions.js';
import { AuthorizationSession } from '../../../src/auth/authorization_session.js';
import { AuthManager } from '../../../src/auth/auth_manager.js';
import { ACTION_TYPES, ANY_RESOURCE, CLUSTER, covers, ns, parsePrivilege, PrivilegeSet, privilegeToDocument } from '../../../src/auth/privileges.js';
import { builtinRole, builtinRoleNames, resolveRoles, type RoleDefinition, type RoleName } from '../../../src/auth/roles.js';
import { MAYFLY_COMMANDS, MONGOD_COMMANDS } from '../../../src/commands/catalogue.js';
import { COMMANDS } from '../../../src/commands/registry.js';
import { Catalog } from '../../../src/storage/catalog.js';

const builtin = (r: RoleName) => builtinRole(r);

describe('built-in roles', () => {
  test('the roles of a database and of admin', () => {
    expect(builtinRoleNames('test')).toEqual(['dbAdmin', 'dbOwner', 'enableSharding', 'read', 'readWrite', 'userAdmin']);
    expect(builtinRoleNames('admin')).toEqual([
      '__system', 'backup', 'clusterAdmin', 'clusterManager', 'clusterMonitor', 'dbAdmin', 'dbAdminAnyDatabase', 'dbOwner', 'enableSharding',
      'hostManager', 'read', 'readAnyDatabase', 'readWrite', 'readWriteAnyDatabase', 'restore', 'root', 'userAdmin', 'userAdminAnyDatabase',
    ]);
    expect(builtinRole({ role: 'root', db: 'test' })).toBeUndefined();
  });

  test('dbOwner inherits readWrite, dbAdmin and userAdmin of its database', () => {
    const r = resolveRoles([{ role: 'dbOwner', db: 'shop' }], builtin);
    expect(r.roles).toEqual([
      { role: 'dbOwner', db: 'shop' },
      { role: 'readWrite', db: 'shop' },
      { role: 'dbAdmin', db: 'shop' },
      { role: 'userAdmin', db: 'shop' },
    ]);
    const set = new PrivilegeSet(r.privileges);
    expect(set.allows(ns('shop', 'orders'), ['insert', 'createUser', 'collMod'])).toBe(true);
    expect(set.allows(ns('other', 'orders'), ['find'])).toBe(false);
  });

  test('root reaches every *AnyDatabase role, clusterAdmin and its parts, backup and restore', () => {
    const r = resolveRoles([{ role: 'root', db: 'admin' }], builtin);
    expect(r.roles.map((x) => x.role).sort()).toEqual([
      'backup', 'clusterAdmin', 'clusterManager', 'clusterMonitor', 'dbAdminAnyDatabase', 'hostManager', 'readWriteAnyDatabase', 'restore', 'root', 'userAdminAnyDatabase',
    ]);
    const set = new PrivilegeSet(r.privileges);
    expect(set.allows(ns('any', 'thing'), ['find', 'insert', 'update', 'remove', 'dropDatabase'])).toBe(true);
    expect(set.allows(CLUSTER, ['serverStatus', 'shutdown', 'invalidateUserCache'])).toBe(true);
  });

  test('read has no write action', () => {
    const set = new PrivilegeSet(resolveRoles([{ role: 'read', db: 'd' }], builtin).privileges);
    expect(set.allows(ns('d', 'c'), ['find', 'listIndexes', 'collStats'])).toBe(true);
    expect(set.allows(ns('d', 'c'), ['insert'])).toBe(false);
    expect(set.allows(ns('d', ''), ['listCollections', 'dbStats'])).toBe(true);
  });

  test('custom roles inherit, and a cycle is visited once', () => {
    const custom: Record<string, RoleDefinition> = {
      'd.a': { name: { role: 'a', db: 'd' }, privileges: [parsePrivilege({ resource: { db: 'd', collection: 'x' }, actions: ['find'] })], roles: [{ role: 'b', db: 'd' }], isBuiltin: false },
      'd.b': { name: { role: 'b', db: 'd' }, privileges: [], roles: [{ role: 'a', db: 'd' }, { role: 'read', db: 'e' }], isBuiltin: false },
    };
    const r = resolveRoles([{ role: 'a', db: 'd' }], (n) => builtin(n) ?? custom[`${n.db}.${n.role}`]);
    expect(r.roles).toEqual([{ role: 'a', db: 'd' }, { role: 'b', db: 'd' }, { role: 'read', db: 'e' }]);
    const set = new PrivilegeSet(r.privileges);
    expect(set.allows(ns('d', 'x'), ['find'])).toBe(true);
    expect(set.allows(ns('d', 'y'), ['find'])).toBe(false);
    expect(set.allows(ns('e', 'y'), ['find'])).toBe(true);
  });
});

describe('resource patterns', () => {
  test.each([
    [ns('d', 'c'), ns('d', 'c'), true],
    [ns('d', 'c'), ns('d', 'x'), false],
    [ns('d', ''), ns('d', 'c'), true],
    [ns('d', ''), ns('d', 'system.users'), false],
    [ns('d', ''), ns('d', ''), true],
    [ns('d', ''), ns('e', 'c'), false],
    [ns('', 'c'), ns('e', 'c'), true],
    [ns('', 'c'), ns('e', ''), false],
    [ns('', ''), ns('e', 'c'), true],
    [ns('', ''), ns('e', ''), true],
    [ns('', ''), ns('e', 'system.js'), false],
    [ns('', ''), CLUSTER, false],
    [CLUSTER, CLUSTER, true],
    [CLUSTER, ns('d', 'c'), false],
    [ANY_RESOURCE, ns('d', 'system.users'), true],
    [ANY_RESOURCE, CLUSTER, true],
  ] as const)('%j covers %j: %s', (granted, requested, expected) => {
    expect(covers(granted, requested)).toBe(expected);
  });

  test('privilege documents are checked as createRole takes them', () => {
    expect(privilegeToDocument(parsePrivilege({ resource: { cluster: true }, actions: ['serverStatus', 'inprog'] }))).toEqual({ resource: { cluster: true }, actions: ['inprog', 'serverStatus'] });
    expect(() => parsePrivilege({ resource: { db: 'd', collection: '' }, actions: ['fly'] })).toThrow('Unrecognized action privilege string: fly');
    expect(() => parsePrivilege({ resource: { db: 'd' }, actions: ['find'] })).toThrow("resource pattern must contain 'db' and 'collection' fields of type string");
    expect(() => parsePrivilege({ resource: { db: 'd', collection: '' }, actions: [] })).toThrow('Privilege must have at least one action');
    expect(() => parsePrivilege({ actions: ['find'] })).toThrow("Privilege document must contain a 'resource' field of type object");
  });
});

describe('the action table', () => {
  test('every command of the catalogue has an entry, and nothing else does', () => {
    expect(Object.keys(COMMAND_PRIVILEGES).sort()).toEqual([...MONGOD_COMMANDS, ...MAYFLY_COMMANDS].sort());
  });

  test('every implemented command has an entry', () => {
    for (const def of COMMANDS) expect(COMMAND_PRIVILEGES[def.name], def.name).toBeDefined();
  });

  test('the entries name only real actions, on the resources the request names', () => {
    const session = new AuthorizationSession(new AuthManager(new Catalog(), () => 0));
    const known = new Set(ACTION_TYPES);
    for (const [name, entry] of Object.entries(COMMAND_PRIVILEGES)) {
      if (entry === NO_AUTH) continue;
      for (const requirement of entry('d', { [name]: 'c', to: 'd.e', pipeline: [], updates: [{ upsert: true }], roles: [{ role: 'read', db: 'x' }] }, session)) {
        for (const needed of requirement) for (const action of needed.actions) expect(known.has(action), `${name}: ${action}`).toBe(true);
      }
    }
  });

  test('the handshake set needs no user', () => {
    const open = Object.entries(COMMAND_PRIVILEGES).filter(([, e]) => e === NO_AUTH).map(([n]) => n).sort();
    expect(open).toEqual(['authenticate', 'buildInfo', 'connectionStatus', 'getnonce', 'hello', 'isMaster', 'logout', 'ping', 'saslContinue', 'saslStart']);
  });

  test.each([
    ['find', { find: 'c' }, [[{ resource: ns('d', 'c'), actions: ['find'] }]]],
    ['insert', { insert: 'c', bypassDocumentValidation: true }, [[{ resource: ns('d', 'c'), actions: ['insert'] }, { resource: ns('d', 'c'), actions: ['bypassDocumentValidation'] }]]],
    ['update', { update: 'c', updates: [{ q: {}, u: {}, upsert: true }] }, [[{ resource: ns('d', 'c'), actions: ['update'] }, { resource: ns('d', 'c'), actions: ['insert'] }]]],
    ['findAndModify', { findAndModify: 'c', remove: true }, [[{ resource: ns('d', 'c'), actions: ['find', 'remove'] }]]],
    ['create', { create: 'c' }, [[{ resource: ns('d', 'c'), actions: ['createCollection'] }], [{ resource: ns('d', 'c'), actions: ['insert'] }]]],
    ['aggregate', { aggregate: 'c', pipeline: [{ $lookup: { from: 'o', as: 'x', localField: 'a', foreignField: 'b' } }, { $out: 'out' }] }, [[
      { resource: ns('d', 'c'), actions: ['find'] },
      { resource: ns('d', 'o'), actions: ['find'] },
      { resource: ns('d', 'out'), actions: ['insert', 'remove'] },
    ]]],
    ['renameCollection', { renameCollection: 'a.b', to: 'c.d' }, [[{ resource: ns('a', 'b'), actions: ['find', 'dropCollection'] }, { resource: ns('c', 'd'), actions: ['insert', 'createIndex'] }]]],
    ['serverStatus', { serverStatus: 1 }, [[{ resource: CLUSTER, actions: ['serverStatus'] }]]],
    ['createUser', { createUser: 'u', roles: [{ role: 'read', db: 'x' }, 'readWrite'] }, [[
      { resource: ns('d', ''), actions: ['createUser'] },
      { resource: ns('x', ''), actions: ['grantRole'] },
      { resource: ns('d', ''), actions: ['grantRole'] },
    ]]],
    ['explain', { explain: { count: 'c' } }, [[{ resource: ns('d', 'c'), actions: ['find'] }]]],
  ] as const)('%s needs %j', (name, cmd, expected) => {
    const entry = COMMAND_PRIVILEGES[name];
    if (entry === NO_AUTH || entry === undefined) throw new Error(`${name} has no privileges`);
    const session = new AuthorizationSession(new AuthManager(new Catalog(), () => 0));
    expect(entry('d', cmd, session)).toEqual(expected);
  });
});
