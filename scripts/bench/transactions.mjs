// node scripts/bench/transactions.mjs [--quick] [--json] (after npm run build): transactions and
// snapshot reads through the official driver against a one-node replica set in its own process.
// 1. A transaction of one insert and one update by _id, committed, against the same two writes
//    without a transaction (target: >= 0.5x the rate).
// 2. The same transactions while a snapshot session, opened before them and held for the whole
//    measured run, reads every ~10 ms at the time of its first read (it pins that time's history),
//    against none (target: writers slowed by <= 10 %); beside it, against the same reads at the
//    same pace without snapshot (what the snapshot itself costs, the reads apart).
// 3. The same transactions while a reader reads continuously in a snapshot session, against the
//    same continuous reads without snapshot (what the snapshot itself costs the writer; target
//    <= 10 %).
// 4. The server's RSS before the pinned runs, at the end of each and of each control run, and
//    after them: every run adds its documents (4,000; 1,500 with --quick) and their change-log entries, so RSS grows
//    alike through both kinds of run; were a reader's pinned history not freed when it ends, the
//    pinned runs would add it on top, run after run.
//
// Fairness: the readers run in a process of their own (this script again, `--reader`), so that
// the driver's work for them does not take the writer's CPU; between runs the history window is
// shortened so that every run starts with no history kept. Each comparison is PAIRS pairs of a
// measured run and its control, the order alternating from pair to pair, and its figure the
// median of the pairs' ratios: noise on a shared machine moves both members of a pair alike,
// where runs seconds apart differ by more than what is measured.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { median, startMayfly, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');
const N = quick ? 1500 : 4000;
const RUNS = 3;
const PAIRS = 5;

const readerAt = process.argv.indexOf('--reader');
if (readerAt >= 0) await reader(process.argv[readerAt + 1], process.argv[readerAt + 2]);
else await main();

/**
 * A child of this script: reads bench_txn.t until told to stop, then prints how many reads it
 * made. `mode`: `pinned` (a snapshot session, a read every ~10 ms), `paced` (the same reads at
 * the same pace, no snapshot), `snapshot` (a snapshot session, reads back to back), `plain` (the
 * same reads back to back, no snapshot).
 */
async function reader(uri, mode) {
  const client = new MongoClient(uri, { maxPoolSize: 2 });
  await client.connect();
  const session = mode === 'plain' || mode === 'paced' ? undefined : client.startSession({ snapshot: true });
  const c = client.db('bench_txn').collection('t');
  let reading = true;
  let reads = 0;
  const read = () => c.find({ _id: { $lt: 0 } }, session === undefined ? {} : { session }).limit(10).toArray();
  await read(); // the snapshot session's time is fixed here
  reads++;
  process.stdout.write('ready\n');
  process.stdin.once('data', () => (reading = false));
  while (reading) {
    await read();
    reads++;
    if (mode === 'pinned' || mode === 'paced') await new Promise((r) => setTimeout(r, 10));
    else await new Promise((r) => setImmediate(r));
  }
  await session?.endSession();
  await client.close();
  process.stdout.write(`${reads}\n`);
  process.exit(0);
}

async function main() {
  const server = await startMayfly(['--replSet', 'rs0', '--compat', 'mongodb']);
  const uri = `${server.uri.replace(/\/?(\?.*)?$/, '')}/?directConnection=true`;
  const client = new MongoClient(uri, { maxPoolSize: 4 });
  await client.connect();
  const db = client.db('bench_txn');
  const admin = client.db('admin');
  const rssMiB = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  };

  let next = 0;
  async function plainRate(coll) {
    const c = db.collection(coll);
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const _id = ++next;
      await c.insertOne({ _id, n: 0 });
      await c.updateOne({ _id }, { $inc: { n: 1 } });
    }
    return N / ((performance.now() - t0) / 1000);
  }
  async function txnRate(coll) {
    const c = db.collection(coll);
    const session = client.startSession();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      const _id = ++next;
      session.startTransaction();
      await c.insertOne({ _id, n: 0 }, { session });
      await c.updateOne({ _id }, { $inc: { n: 1 } }, { session });
      await session.commitTransaction();
    }
    const rate = N / ((performance.now() - t0) / 1000);
    await session.endSession();
    return rate;
  }

  /** Starts a reader process in `mode`; resolves once it has made its first read. */
  async function startReader(mode) {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--reader', uri, mode], { stdio: ['pipe', 'pipe', 'inherit'] });
    os.setPriority(child.pid, 19);
    const lines = readline.createInterface({ input: child.stdout });
    const it = lines[Symbol.asyncIterator]();
    await it.next();
    return {
      async stop() {
        child.stdin.write('stop\n');
        const reads = Number((await it.next()).value);
        await new Promise((resolve) => (child.exitCode === null ? child.on('exit', resolve) : resolve()));
        return reads;
      },
    };
  }

  /** Frees the history a snapshot reader left (the window shortened for one commit). */
  async function freeHistory() {
    await admin.command({ setParameter: 1, minSnapshotHistoryWindowInSeconds: 0 });
    await db.collection('t').insertOne({ _id: `free${++next}` });
    await admin.command({ setParameter: 1, minSnapshotHistoryWindowInSeconds: 300 });
  }

  /** The transaction rate with a reader in `mode` throughout (the reader's reads too). */
  async function withReader(mode) {
    const r = await startReader(mode);
    const rate = await txnRate('t');
    const rss = rssMiB();
    const reads = await r.stop();
    await freeHistory();
    return { rate, reads, rss };
  }

  await db.collection('t').insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: -1 - i, n: 0 })));
  // Warm-up, then alternate each measured run with its control.
  await plainRate('p');
  await txnRate('t');
  const plain = [];
  const txn = [];
  for (let k = 0; k < RUNS; k++) {
    plain.push(await plainRate('p'));
    txn.push(await txnRate('t'));
  }

  /** PAIRS pairs of `measured()` and `control()` runs (see the header): both sides' runs and the median ratio. */
  async function paired(measured, control) {
    const m = [];
    const c = [];
    const ratios = [];
    for (let k = 0; k < PAIRS; k++) {
      const got = {};
      for (const side of k % 2 === 0 ? ['c', 'm'] : ['m', 'c']) got[side] = side === 'm' ? await measured() : await control();
      m.push(got.m);
      c.push(got.c);
      ratios.push(got.m.rate / got.c.rate);
    }
    return { m, c, slower: ((1 - median(ratios)) * 100).toFixed(1) };
  }

  await new Promise((r) => setTimeout(r, 200));
  const rssBefore = rssMiB();
  const pinned = await paired(() => withReader('pinned'), async () => ({ rate: await txnRate('t'), rss: rssMiB() }));
  await new Promise((r) => setTimeout(r, 200));
  const rssAfter = rssMiB();
  const paced = await paired(() => withReader('pinned'), () => withReader('paced'));
  const continuous = await paired(() => withReader('snapshot'), () => withReader('plain'));

  const spread = (xs) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}`;
  const rates = (runs) => runs.map((r) => r.rate);
  const reads = (runs) => median(runs.map((r) => r.reads));
  const figures = {
    'transactions: insert + update by _id, txns/s vs the same two writes without a transaction (target >= 0.5x)': `${median(txn).toFixed(0)} vs ${median(plain).toFixed(0)} (${(median(txn) / median(plain)).toFixed(2)}x; runs ${spread(txn)} vs ${spread(plain)})`,
    'transactions: txns/s with a snapshot session held open reading every ~10 ms (own process) vs none (target slowdown <= 10 %)': `${median(rates(pinned.m)).toFixed(0)} vs ${median(rates(pinned.c)).toFixed(0)} (${pinned.slower} % slower, median of ${PAIRS} pairs; runs ${spread(rates(pinned.m))} vs ${spread(rates(pinned.c))}; ${reads(pinned.m)} snapshot reads per run)`,
    'transactions: txns/s with that snapshot reader vs the same reads at the same pace without snapshot': `${median(rates(paced.m)).toFixed(0)} vs ${median(rates(paced.c)).toFixed(0)} (${paced.slower} % slower; runs ${spread(rates(paced.m))} vs ${spread(rates(paced.c))}; reads per run ${reads(paced.m)} vs ${reads(paced.c)})`,
    'transactions: txns/s with continuous snapshot reads vs the same reads without snapshot (own process; target slowdown <= 10 %)': `${median(rates(continuous.m)).toFixed(0)} vs ${median(rates(continuous.c)).toFixed(0)} (${continuous.slower} % slower; runs ${spread(rates(continuous.m))} vs ${spread(rates(continuous.c))}; reads per run ${reads(continuous.m)} vs ${reads(continuous.c)})`,
    'transactions: server RSS before / at the end of each pinned run (of each control run) / after': `${rssBefore.toFixed(0)} / ${pinned.m.map((r) => r.rss.toFixed(0)).join(', ')} (${pinned.c.map((r) => r.rss.toFixed(0)).join(', ')}) / ${rssAfter.toFixed(0)} MiB`,
  };
  await client.close();
  await stop(server);
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(figures));
  else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
}
