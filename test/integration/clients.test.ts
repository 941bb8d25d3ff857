/**
 * Real clients other than the Node.js driver: mongosh (the shell path users take) and Debian's
 * python3-pymongo 3.11 (an old driver that shakes hands over OP_QUERY).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MayflyServer } from '../../src/index.js';
import { describeWhenAvailable } from '../support/prerequisite.js';
import { MONGOSH, PROJECT_ROOT, runProcess } from '../support/processes.js';

let server: MayflyServer;
beforeAll(async () => {
  server = await MayflyServer.create();
});
afterAll(async () => {
  await server.stop();
});

function runShell(script: string) {
  return runProcess(MONGOSH, [server.getUri('shelltest'), '--norc', '--eval', script]);
}

describe('mongosh', () => {
  it('connects without warnings and runs inserts, finds, an index, show dbs/collections and a drop', async () => {
    const script = [
      "db.people.insertOne({ _id: 1, name: 'ada', age: 36 })",
      "db.people.insertMany([{ _id: 2, name: 'bob', age: 25 }, { _id: 3, name: 'cy', age: 41 }])",
      "print('FOUND ' + JSON.stringify(db.people.find({ age: { $gt: 30 } }, { _id: 0, name: 1 }).sort({ age: 1 }).toArray()))",
      "print('INDEX ' + db.people.createIndex({ name: 1 }, { unique: true }))",
      "print('INDEXES ' + JSON.stringify(db.people.getIndexes().map(i => i.name)))",
      "print('COUNT ' + db.people.countDocuments({}))",
      "print('DBS'); db.getMongo().getDBs().databases.forEach(d => print(' db ' + d.name))",
      "print('COLLS ' + JSON.stringify(db.getCollectionNames()))",
      "print('DROP ' + db.people.drop())",
      "print('AFTER ' + JSON.stringify(db.getCollectionNames()))",
    ].join(';\n');
    const out = await runShell(script);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const lines = out.stdout.split('\n');
    expect(lines).toContain('FOUND [{"name":"ada"},{"name":"cy"}]');
    expect(lines).toContain('INDEX name_1');
    expect(lines).toContain('INDEXES ["_id_","name_1"]');
    expect(lines).toContain('COUNT 3');
    expect(lines).toContain(' db shelltest');
    expect(lines).toContain('COLLS ["people"]');
    expect(lines).toContain('DROP true');
    expect(lines).toContain('AFTER []');
    expect(out.stdout).not.toMatch(/warning|error/i);
  });

  it('the show helpers print databases and collections', async () => {
    const out = await runShell('db.things.insertOne({ a: 1 })');
    expect(out.status).toBe(0);
    const shown = await runProcess(MONGOSH, [server.getUri('shelltest'), '--norc', '--quiet'], 'show dbs\nshow collections\n');
    expect(shown.status).toBe(0);
    // Without a terminal mongosh echoes its prompt before each answer; admin, config and local,
    // which every mongod has, come first.
    expect(shown.stdout).toMatch(/^shelltest> admin\s+\d+(\.\d+)? KiB$/m);
    expect(shown.stdout).toMatch(/^shelltest\s+\d+(\.\d+)? KiB$/m);
    expect(shown.stdout).toMatch(/^shelltest> things$/m);
    expect(shown.stdout).not.toMatch(/warning|error/i);
  });

  it('a server error reaches the shell with its code name', async () => {
    const out = await runShell("try { db.runCommand({ noSuchCommand: 1 }) } catch (e) { print('CODE ' + e.code + ' ' + e.codeName + ' ' + e.message) }");
    expect(out.stdout.trim()).toBe("CODE 59 CommandNotFound no such command: 'noSuchCommand'");
  });
});

const python = '/usr/bin/python3';
const hasPymongo = spawnSync(python, ['-c', 'import pymongo'], { encoding: 'utf8' }).status === 0;

const noPymongo = hasPymongo ? undefined : `${python} cannot import pymongo (apt-get install -y python3-pymongo)`;

describeWhenAvailable('python3-pymongo', noPymongo, () => {
  it('connects over OP_QUERY and does insert/find/update/delete', async () => {
    const result = await runProcess(python, [path.join(PROJECT_ROOT, 'scripts', 'pymongo_smoke.py'), server.getUri()]);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('pymongo smoke passed');
    expect(result.status).toBe(0);
  });
});
