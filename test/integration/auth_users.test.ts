/**
 * The user- and role-management commands through the driver, as root on a server with --auth:
 * createUser/updateUser/dropUser/dropAllUsersFromDatabase, usersInfo in all its forms,
 * grant/revoke of roles, custom roles (createRole … dropAllRolesFromDatabase, rolesInfo), and
 * their errors; a changed role takes effect on a connection already logged in.
 */
import { Binary, MongoClient, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MayflyServer } from '../../src/index.js';

let server: MayflyServer;
let root: MongoClient;
let shop: Db;

beforeAll(async () => {
  server = await MayflyServer.create({ auth: { username: 'root', password: 'example' } });
  root = new MongoClient(`mongodb://root:example@127.0.0.1:${server.port}/`, { serverSelectionTimeoutMS: 5000 });
  await root.connect();
  shop = root.db('shop');
});
afterAll(async () => {
  await root.close();
  await server.stop();
});

function login(user: string, pwd: string, db = 'shop'): Promise<MongoClient> {
  return new MongoClient(`mongodb://${user}:${pwd}@127.0.0.1:${server.port}/${db}`, { serverSelectionTimeoutMS: 5000, maxPoolSize: 1 }).connect();
}

describe('users', () => {
  test('createUser stores mongod’s document; usersInfo shows it without credentials', async () => {
    expect(await shop.command({ createUser: 'ann', pwd: 'pw1', roles: ['read', { role: 'readWrite', db: 'stock' }], customData: { team: 'ops' } })).toEqual({ ok: 1 });
    const stored = await root.db('admin').collection('system.users').findOne({ _id: 'shop.ann' as never });
    expect(stored).toMatchObject({ _id: 'shop.ann', user: 'ann', db: 'shop', roles: [{ role: 'read', db: 'shop' }, { role: 'readWrite', db: 'stock' }], customData: { team: 'ops' } });
    expect(stored!.userId).toBeInstanceOf(Binary);
    expect((stored!.userId as Binary).sub_type).toBe(4);
    for (const [mech, iterations, saltBytes, keyBytes] of [['SCRAM-SHA-1', 10000, 16, 20], ['SCRAM-SHA-256', 15000, 28, 32]] as const) {
      const c = stored!.credentials[mech];
      expect(c.iterationCount).toBe(iterations);
      expect(Buffer.from(c.salt, 'base64').length).toBe(saltBytes);
      expect(Buffer.from(c.storedKey, 'base64').length).toBe(keyBytes);
      expect(Buffer.from(c.serverKey, 'base64').length).toBe(keyBytes);
    }
    const info = await shop.command({ usersInfo: 'ann' });
    expect(info).toEqual({
      users: [{ _id: 'shop.ann', userId: stored!.userId, user: 'ann', db: 'shop', customData: { team: 'ops' }, roles: [{ role: 'read', db: 'shop' }, { role: 'readWrite', db: 'stock' }], mechanisms: ['SCRAM-SHA-1', 'SCRAM-SHA-256'] }],
      ok: 1,
    });
    const withCreds = await shop.command({ usersInfo: { user: 'ann', db: 'shop' }, showCredentials: true });
    expect(withCreds.users[0].credentials).toEqual(stored!.credentials);
  });

  test('usersInfo: 1, an array, forAllDBs, showPrivileges, filter', async () => {
    await shop.command({ createUser: 'bob', pwd: 'pw', roles: [] });
    await root.db('stock').command({ createUser: 'ann', pwd: 'pw', roles: [] });
    const names = (r: Document) => r.users.map((u: Document) => `${u.user}@${u.db}`);
    expect(names(await shop.command({ usersInfo: 1 }))).toEqual(['ann@shop', 'bob@shop']);
    expect(names(await shop.command({ usersInfo: ['bob', { user: 'ann', db: 'stock' }, 'nobody'] }))).toEqual(['bob@shop', 'ann@stock']);
    expect(names(await root.db('admin').command({ usersInfo: { forAllDBs: true } }))).toEqual(['ann@shop', 'ann@stock', 'bob@shop', 'root@admin']);
    expect(names(await root.db('admin').command({ usersInfo: { forAllDBs: true }, filter: { user: 'ann' } }))).toEqual(['ann@shop', 'ann@stock']);
    const priv = await shop.command({ usersInfo: 'ann', showPrivileges: true });
    expect(priv.users[0].inheritedRoles).toEqual([{ role: 'read', db: 'shop' }, { role: 'readWrite', db: 'stock' }]);
    expect(priv.users[0].inheritedPrivileges.map((p: Document) => p.resource)).toContainEqual({ db: 'stock', collection: '' });
    await expect(shop.command({ usersInfo: 'bob', filter: {} })).rejects.toMatchObject({ code: 2, message: 'Filter is only supported in mode {usersInfo: 1} or {usersInfo: {forAllDBs: true}}' });
  });

  test('createUser errors', async () => {
    await expect(shop.command({ createUser: 'ann', pwd: 'x', roles: [] })).rejects.toMatchObject({ code: 51003, codeName: 'Location51003', message: 'User "ann@shop" already exists' });
    await expect(shop.command({ createUser: 'cy', pwd: 'x', roles: ['nosuch'] })).rejects.toMatchObject({ code: 31, codeName: 'RoleNotFound', message: 'Could not find role: nosuch@shop' });
    await expect(shop.command({ createUser: 'cy', pwd: 'x', roles: ['root'] })).rejects.toMatchObject({ code: 31, message: 'Could not find role: root@shop' });
    await expect(shop.command({ createUser: 'cy', roles: [] })).rejects.toMatchObject({ code: 2, message: "Must provide a 'pwd' field for all user documents, except those with '$external' as the user's source db" });
    await expect(shop.command({ createUser: 'cy', pwd: 'x' })).rejects.toMatchObject({ code: 40414, message: "BSON field 'createUser.roles' is missing but a required field" });
    await expect(shop.command({ createUser: 'cy', pwd: 'x', roles: [], mechanisms: ['MD5'] })).rejects.toMatchObject({ code: 2, message: "Unknown auth mechanism 'MD5'" });
    await expect(shop.command({ createUser: 'cy', pwd: '', roles: [] })).rejects.toMatchObject({ code: 2, message: 'Password cannot be empty' });
    await expect(shop.command({ createUser: 'cy', pwd: 'x', roles: [], bogus: 1 })).rejects.toMatchObject({ code: 40415, message: "BSON field 'createUser.bogus' is an unknown field." });
    expect((await shop.command({ usersInfo: 'cy' })).users).toEqual([]);
  });

  test('updateUser changes the password; the old one stops working', async () => {
    await shop.command({ createUser: 'dee', pwd: 'old', roles: ['read'] });
    expect(await shop.command({ updateUser: 'dee', pwd: 'new' })).toEqual({ ok: 1 });
    await expect(login('dee', 'old')).rejects.toMatchObject({ code: 18 });
    const c = await login('dee', 'new');
    expect(await c.db('shop').collection('c').countDocuments()).toBe(0);
    await c.close();
    await expect(shop.command({ updateUser: 'nobody', pwd: 'x' })).rejects.toMatchObject({ code: 11, codeName: 'UserNotFound', message: "User 'nobody@shop' not found" });
    await expect(shop.command({ updateUser: 'dee' })).rejects.toMatchObject({ code: 2, message: 'Must specify at least one field to update in updateUser' });
  });

  test('grantRolesToUser and revokeRolesFromUser take effect on a connection already logged in', async () => {
    await shop.command({ createUser: 'eve', pwd: 'pw', roles: ['read'] });
    const eve = await login('eve', 'pw');
    try {
      await expect(eve.db('shop').collection('c').insertOne({ _id: 1 as never })).rejects.toMatchObject({ code: 13 });
      expect(await shop.command({ grantRolesToUser: 'eve', roles: ['readWrite'] })).toEqual({ ok: 1 });
      expect((await eve.db('shop').collection('c').insertOne({ _id: 1 as never })).acknowledged).toBe(true);
      expect(await shop.command({ revokeRolesFromUser: 'eve', roles: ['readWrite', 'read'] })).toEqual({ ok: 1 });
      await expect(eve.db('shop').collection('c').findOne()).rejects.toMatchObject({ code: 13 });
      expect((await shop.command({ usersInfo: 'eve' })).users[0].roles).toEqual([]);
    } finally {
      await eve.close();
    }
  });

  test('dropUser and dropAllUsersFromDatabase', async () => {
    await root.db('tmp').command({ createUser: 'u1', pwd: 'pw', roles: [] });
    await root.db('tmp').command({ createUser: 'u2', pwd: 'pw', roles: [] });
    expect(await root.db('tmp').command({ dropUser: 'u1' })).toEqual({ ok: 1 });
    await expect(root.db('tmp').command({ dropUser: 'u1' })).rejects.toMatchObject({ code: 11, message: "User 'u1@tmp' not found" });
    expect(await root.db('tmp').command({ dropAllUsersFromDatabase: 1 })).toEqual({ n: 1, ok: 1 });
    expect(await root.db('tmp').command({ dropAllUsersFromDatabase: 1 })).toEqual({ n: 0, ok: 1 });
  });
});

describe('roles', () => {
  test('a custom role with privileges and inherited roles, rolesInfo, and a user holding it', async () => {
    expect(
      await shop.command({ createRole: 'auditor', privileges: [{ resource: { db: 'shop', collection: 'ledger' }, actions: ['find', 'insert'] }], roles: [{ role: 'read', db: 'stock' }] }),
    ).toEqual({ ok: 1 });
    const info = await shop.command({ rolesInfo: 'auditor', showPrivileges: true });
    expect(info).toEqual({
      roles: [
        {
          _id: 'shop.auditor',
          role: 'auditor',
          db: 'shop',
          isBuiltin: false,
          roles: [{ role: 'read', db: 'stock' }],
          inheritedRoles: [{ role: 'read', db: 'stock' }],
          privileges: [{ resource: { db: 'shop', collection: 'ledger' }, actions: ['find', 'insert'] }],
          inheritedPrivileges: expect.arrayContaining([{ resource: { db: 'shop', collection: 'ledger' }, actions: ['find', 'insert'] }]),
        },
      ],
      ok: 1,
    });
    await shop.command({ createUser: 'fay', pwd: 'pw', roles: ['auditor'] });
    const fay = await login('fay', 'pw');
    try {
      expect((await fay.db('shop').collection('ledger').insertOne({ a: 1 })).acknowledged).toBe(true);
      expect(await fay.db('stock').collection('items').countDocuments()).toBe(0);
      await expect(fay.db('shop').collection('other').findOne()).rejects.toMatchObject({ code: 13 });
      expect(await shop.command({ revokePrivilegesFromRole: 'auditor', privileges: [{ resource: { db: 'shop', collection: 'ledger' }, actions: ['insert'] }] })).toEqual({ ok: 1 });
      await expect(fay.db('shop').collection('ledger').insertOne({ a: 2 })).rejects.toMatchObject({ code: 13 });
      expect(await shop.command({ grantPrivilegesToRole: 'auditor', privileges: [{ resource: { db: 'shop', collection: '' }, actions: ['find'] }] })).toEqual({ ok: 1 });
      expect(await fay.db('shop').collection('other').countDocuments()).toBe(0);
      expect(await shop.command({ revokeRolesFromRole: 'auditor', roles: [{ role: 'read', db: 'stock' }] })).toEqual({ ok: 1 });
      await expect(fay.db('stock').collection('items').findOne()).rejects.toMatchObject({ code: 13 });
      expect(await shop.command({ grantRolesToRole: 'auditor', roles: ['readWrite'] })).toEqual({ ok: 1 });
      expect((await fay.db('shop').collection('x').insertOne({ a: 1 })).acknowledged).toBe(true);
      expect(await shop.command({ updateRole: 'auditor', privileges: [], roles: [] })).toEqual({ ok: 1 });
      await expect(fay.db('shop').collection('x').findOne()).rejects.toMatchObject({ code: 13 });
      expect(await shop.command({ dropRole: 'auditor' })).toEqual({ ok: 1 });
      expect((await shop.command({ usersInfo: 'fay' })).users[0].roles).toEqual([]);
    } finally {
      await fay.close();
    }
  });

  test('rolesInfo of built-in roles', async () => {
    expect(await shop.command({ rolesInfo: 'dbOwner' })).toEqual({
      roles: [
        {
          role: 'dbOwner',
          db: 'shop',
          isBuiltin: true,
          roles: [{ role: 'readWrite', db: 'shop' }, { role: 'dbAdmin', db: 'shop' }, { role: 'userAdmin', db: 'shop' }],
          inheritedRoles: [{ role: 'readWrite', db: 'shop' }, { role: 'dbAdmin', db: 'shop' }, { role: 'userAdmin', db: 'shop' }],
        },
      ],
      ok: 1,
    });
    const all = await root.db('rolesdb').command({ rolesInfo: 1, showBuiltinRoles: true });
    expect(all.roles.map((r: Document) => r.role)).toEqual(['dbAdmin', 'dbOwner', 'enableSharding', 'read', 'readWrite', 'userAdmin']);
    expect((await root.db('rolesdb').command({ rolesInfo: 1 })).roles).toEqual([]);
    expect((await shop.command({ rolesInfo: 'nosuch' })).roles).toEqual([]);
  });

  test('role errors', async () => {
    await shop.command({ createRole: 'r1', privileges: [], roles: [] });
    await shop.command({ createRole: 'r2', privileges: [], roles: ['r1'] });
    await expect(shop.command({ createRole: 'r1', privileges: [], roles: [] })).rejects.toMatchObject({ code: 51002, message: 'Role "r1@shop" already exists' });
    await expect(shop.command({ createRole: 'read', privileges: [], roles: [] })).rejects.toMatchObject({ code: 2, message: 'Cannot create built-in role: read@shop' });
    await expect(shop.command({ grantRolesToRole: 'r1', roles: ['r2'] })).rejects.toMatchObject({
      code: 5,
      codeName: 'GraphContainsCycle',
      message: 'Granting roles to r1@shop would introduce a cycle in the role graph',
    });
    await expect(shop.command({ dropRole: 'nosuch' })).rejects.toMatchObject({ code: 31, message: "Role 'nosuch@shop' not found" });
    await expect(shop.command({ grantPrivilegesToRole: 'r1', privileges: [{ resource: { db: 'shop', collection: '' }, actions: ['fly'] }] })).rejects.toMatchObject({
      code: 2,
      message: 'Unrecognized action privilege string: fly',
    });
    await expect(shop.command({ createRole: 'r3', privileges: [], roles: ['nosuch'] })).rejects.toMatchObject({ code: 31, message: 'Could not find role: nosuch@shop' });
    expect(await shop.command({ dropAllRolesFromDatabase: 1 })).toEqual({ n: 2, ok: 1 });
    expect(await root.db('admin').command({ invalidateUserCache: 1 })).toEqual({ ok: 1 });
  });
});

test('the admin database cannot be dropped (20); dropping the users: a connection logged in loses its privileges', async () => {
  const fresh = await MayflyServer.create({ auth: { username: 'root', password: 'example' } });
  const boss = new MongoClient(`mongodb://root:example@127.0.0.1:${fresh.port}/`, { serverSelectionTimeoutMS: 5000 });
  try {
    await boss.connect();
    await boss.db('app').command({ createUser: 'worker', pwd: 'pw', roles: ['readWrite'] });
    const worker = await new MongoClient(`mongodb://worker:pw@127.0.0.1:${fresh.port}/app`, { serverSelectionTimeoutMS: 5000, maxPoolSize: 1 }).connect();
    try {
      expect(await worker.db('app').collection('c').countDocuments()).toBe(0);
      await expect(boss.db('admin').command({ dropDatabase: 1 })).rejects.toMatchObject({ code: 20, codeName: 'IllegalOperation', message: "Dropping the 'admin' database is prohibited." });
      expect(await boss.db('app').command({ dropAllUsersFromDatabase: 1 })).toEqual({ n: 1, ok: 1 });
      await expect(worker.db('app').collection('c').findOne()).rejects.toMatchObject({ code: 13 });
    } finally {
      await worker.close();
    }
  } finally {
    await boss.close();
    await fresh.stop();
  }
});
