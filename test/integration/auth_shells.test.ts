/**
 * Authentication from the shells: mongosh (`-u -p`, `db.auth`, `db.createUser`,
 * `db.getUsers()`) and Debian's pymongo 3.11 (credentials in the URI, both SCRAM mechanisms).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MayflyServer } from '../../src/index.js';
import { describeWhenAvailable } from '../support/prerequisite.js';
import { MONGOSH, runProcess } from '../support/processes.js';

let server: MayflyServer;
beforeAll(async () => {
  server = await MayflyServer.create({ auth: { username: 'root', password: 'example' } });
});
afterAll(async () => {
  await server.stop();
});

describe('mongosh', () => {
  test('-u -p, db.createUser, db.getUsers(), db.auth', async () => {
    const script = [
      "const shop = db.getSiblingDB('shop')",
      "shop.createUser({ user: 'shell', pwd: 'pw', roles: ['readWrite'] })",
      "print('USERS ' + JSON.stringify(shop.getUsers().users.map((u) => [u.user, u.db, u.roles, u.mechanisms])))",
      "print('AUTH ' + shop.auth('shell', 'pw').ok)",
      "print('STATUS ' + JSON.stringify(db.runCommand({ connectionStatus: 1 }).authInfo.authenticatedUsers))",
      "shop.things.insertOne({ _id: 1 })",
      "print('COUNT ' + shop.things.countDocuments())",
      "try { db.getSiblingDB('admin').runCommand({ serverStatus: 1 }) } catch (e) { print('REFUSED ' + e.code + ' ' + e.codeName) }",
      "try { shop.auth('shell', 'wrong') } catch (e) { print('BAD ' + e.code + ' ' + e.message) }",
    ].join('\n');
    const out = await runProcess(MONGOSH, [`mongodb://127.0.0.1:${server.port}/admin`, '-u', 'root', '-p', 'example', '--norc', '--quiet', '--eval', script]);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines).toContain('USERS [["shell","shop",[{"role":"readWrite","db":"shop"}],["SCRAM-SHA-1","SCRAM-SHA-256"]]]');
    expect(lines).toContain('AUTH 1');
    expect(lines).toContain('STATUS [{"user":"shell","db":"shop"}]');
    expect(lines).toContain('COUNT 1');
    expect(lines).toContain('REFUSED 13 Unauthorized');
    expect(lines).toContain('BAD 18 Authentication failed.');
  });

  test('a wrong password on the command line', async () => {
    const out = await runProcess(MONGOSH, [`mongodb://127.0.0.1:${server.port}/admin`, '-u', 'root', '-p', 'nope', '--norc', '--quiet', '--eval', "print('never')"]);
    expect(out.status).not.toBe(0);
    expect(out.stdout).not.toContain('never');
    expect(out.stderr).toContain('Authentication failed.');
  });
});

const python = '/usr/bin/python3';
const hasPymongo = spawnSync(python, ['-c', 'import pymongo'], { encoding: 'utf8' }).status === 0;
const noPymongo = hasPymongo ? undefined : `${python} cannot import pymongo (apt-get install -y python3-pymongo)`;

describeWhenAvailable('python3-pymongo with credentials', noPymongo, () => {
  test('both SCRAM mechanisms, and a wrong password', async () => {
    const script = `
import sys, pymongo
from pymongo.errors import OperationFailure
port = int(sys.argv[1])
for mech in ('SCRAM-SHA-256', 'SCRAM-SHA-1'):
    c = pymongo.MongoClient('mongodb://root:example@127.0.0.1:%d/?authSource=admin&authMechanism=%s' % (port, mech), serverSelectionTimeoutMS=5000)
    c.py.items.insert_one({'mech': mech, 'f': 1.0})
    doc = c.py.items.find_one({'mech': mech})
    print(mech, type(doc['f']).__name__, c.admin.command('connectionStatus')['authInfo']['authenticatedUsers'])
    c.close()
try:
    c = pymongo.MongoClient('mongodb://root:wrong@127.0.0.1:%d/' % port, serverSelectionTimeoutMS=5000)
    c.admin.command('ping')
except OperationFailure as e:
    print('FAILED', e.code, e.details['errmsg'])
`;
    const out = await runProcess(python, ['-c', script, String(server.port)]);
    expect(out.stderr).toBe('');
    expect(out.stdout.trim().split('\n')).toEqual([
      "SCRAM-SHA-256 float [{'user': 'root', 'db': 'admin'}]",
      "SCRAM-SHA-1 float [{'user': 'root', 'db': 'admin'}]",
      'FAILED 18 Authentication failed.',
    ]);
    expect(out.status).toBe(0);
  });
});
