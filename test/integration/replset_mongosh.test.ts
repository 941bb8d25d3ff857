/**
 * The one-node replica set from mongosh: connecting with `?replicaSet=` discovers the set, and
 * `rs.status()`, `rs.conf()`, `rs.isMaster()` and `rs.initiate()` answer as a one-member set.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MayflyReplSet } from '../../src/index.js';
import { runMongosh } from '../support/processes.js';

let rs: MayflyReplSet;
beforeAll(async () => {
  rs = await MayflyReplSet.create({ replSet: { name: 'rs0' } });
});
afterAll(async () => {
  await rs.stop();
});

describe('mongosh on the replica set', () => {
  test('rs.status(), rs.conf(), rs.isMaster(), rs.initiate()', async () => {
    const host = `127.0.0.1:${rs.servers[0]!.port}`;
    const script = [
      'db.c.insertOne({ _id: 1 })',
      'const st = rs.status()',
      "print('STATUS ' + st.set + ' ' + st.myState + ' ' + st.members.length + ' ' + st.members[0].stateStr + ' ' + st.members[0].name + ' ' + st.members[0].self)",
      'const conf = rs.conf()',
      "print('CONF ' + conf._id + ' ' + conf.version + ' ' + conf.members.map((m) => m._id + '=' + m.host).join(','))",
      'const im = rs.isMaster()',
      "print('ISMASTER ' + im.ismaster + ' ' + im.secondary + ' ' + im.setName + ' ' + im.primary)",
      "try { rs.initiate() } catch (e) { print('INITIATE ' + e.code + ' ' + e.codeName) }",
      "print('COUNT ' + db.c.countDocuments())",
    ].join(';\n');
    const out = await runMongosh([rs.getUri('app')], script);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n').filter((line) => line.length > 0)).toEqual([
      `STATUS rs0 1 1 PRIMARY ${host} true`,
      `CONF rs0 1 0=${host}`,
      `ISMASTER true false rs0 ${host}`,
      'INITIATE 23 AlreadyInitialized',
      'COUNT 1',
    ]);
  });
});
