/**
 * Real clients other than the Node.js driver: mongosh (the shell path users take) and Debian's
 * python3-pymongo 3.11 (an old driver that shakes hands over OP_QUERY).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MayflyServer } from '../../src/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const mongosh = path.join(root, 'node_modules', '.bin', 'mongosh');

let server: MayflyServer;
beforeAll(async () => {
  server = await MayflyServer.create();
});
afterAll(async () => {
  await server.stop();
});

function runShell(script: string): { stdout: string; stderr: string; status: number | null } {
  const result = spawnSync(mongosh, [server.getUri('shelltest'), '--norc', '--eval', script], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, MONGOSH_NO_UPDATE_CHECK: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

describe('mongosh', () => {
  it('connects without warnings and runs inserts, finds, an index, show dbs/collections and a drop', () => {
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
    const out = runShell(script);
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

  it('the show helpers print databases and collections', () => {
    const out = runShell('db.things.insertOne({ a: 1 })');
    expect(out.status).toBe(0);
    const shown = spawnSync(mongosh, [server.getUri('shelltest'), '--norc', '--quiet'], {
      input: 'show dbs\nshow collections\n',
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, MONGOSH_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/^shelltest\s+\S+/m);
    expect(shown.stdout).toMatch(/^things$/m);
    expect(shown.stdout).not.toMatch(/warning|error/i);
  });

  it('a server error reaches the shell with its code name', () => {
    const out = runShell("try { db.runCommand({ noSuchCommand: 1 }) } catch (e) { print('ERR ' + e.codeName) }; const r = db.runCommand({ noSuchCommand: 1 }); print('CODE ' + r.code + ' ' + r.codeName)");
    expect(out.stdout).toContain('CODE 59 CommandNotFound');
  });
});

const python = '/usr/bin/python3';
const hasPymongo = spawnSync(python, ['-c', 'import pymongo'], { encoding: 'utf8' }).status === 0;

describe.runIf(hasPymongo)('python3-pymongo (present on this machine)', () => {
  it('connects over OP_QUERY and does insert/find/update/delete', () => {
    const result = spawnSync(python, [path.join(root, 'scripts', 'pymongo_smoke.py'), server.getUri()], { encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n').at(-1)).toBe('pymongo smoke passed');
    expect(result.status).toBe(0);
  });
});
