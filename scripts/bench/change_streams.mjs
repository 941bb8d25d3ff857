// node scripts/bench/change_streams.mjs [--quick] (after npm run build): change streams through
// the official driver against a one-node replica set in its own process (`--replSet rs0`). Prints the insert → event
// latency (p50, p99) against an insert's own round trip, and the write rate with 10 watchers on
// the collection against the rate with none (targets: p50 ≤ 2× the round trip; ≤ 1.5× cost).
//
// The 10 watchers are measured three times: in the writer's own process (the driver's work on
// each watcher's events is then paid by the writer's process too, so that figure is bound by the
// client); in a process of their own at the lowest CPU priority (nice 19), the target figure:
// what the server's work for the watchers costs the writer, the watchers' own driver work taking
// only the CPU the server and the writer leave (on a machine with fewer cores than the three busy
// processes, it would otherwise take the writer's); and in their own process at equal priority.
// Beside each, the CPU time per write of the server (Linux /proc), of this process (the writer,
// and the watchers when they are in it) and of the watchers' own process: where the time of a
// watched write goes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { startMayfly, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');
const N = quick ? 300 : 2000;
const WATCHERS = 10;

// A child of this script: WATCHERS streams on bench_cs.w10, reading until told to stop.
const watchersAt = process.argv.indexOf('--watchers');
if (watchersAt >= 0) {
  const client = new MongoClient(process.argv[watchersAt + 1], { maxPoolSize: 16 });
  await client.connect();
  const streams = await openWatchers(client, 'w10');
  process.stdout.write('ready\n');
  process.stdin.once('data', async () => {
    for (const s of streams) await s.close();
    await client.close();
    process.exit(0);
  });
} else await main();

/** Opens WATCHERS change streams on bench_cs.`coll`, each reading its events as they come. */
async function openWatchers(client, coll) {
  const streams = [];
  for (let k = 0; k < WATCHERS; k++) {
    const s = client.db('bench_cs').collection(coll).watch();
    await s.cursor.cursorInit();
    streams.push(s);
    (async () => {
      try {
        for (;;) await s.next();
      } catch {
        // closed
      }
    })();
  }
  return streams;
}

/** The CPU time (ms) the process `pid` has used, or NaN where /proc is not there. */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return NaN;
  }
}

async function main() {

  const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

  const server = await startMayfly(['--replSet', 'rs0', '--compat', 'mongodb']);
  const uri = `${server.uri.replace(/\/?(\?.*)?$/, '')}/?directConnection=true`;
  const writer = new MongoClient(uri, { maxPoolSize: 4 });
  const watcher = new MongoClient(uri, { maxPoolSize: 16 });
  await writer.connect();
  await watcher.connect();
  const db = writer.db('bench_cs');

  // An insert's own round trip.
  const rtt = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await db.collection('rtt').insertOne({ i });
    rtt.push(performance.now() - t0);
  }

  // Insert → event: the time from sending the insert to the watcher holding its event.
  const stream = watcher.db('bench_cs').collection('lat').watch();
  await stream.cursor.cursorInit();
  const lat = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const next = stream.next();
    await db.collection('lat').insertOne({ i });
    await next;
    lat.push(performance.now() - t0);
  }
  await stream.close();

  /** Writes/s of N sequential inserts into `coll`; the CPU µs per write of the server, this process and `other` (a pid). */
  async function writeRate(coll, other) {
    const cpu0 = cpuMsOf(server.child.pid);
    const other0 = other === undefined ? NaN : cpuMsOf(other);
    const own0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await db.collection(coll).insertOne({ i });
    const ms = performance.now() - t0;
    const own = process.cpuUsage(own0);
    return {
      rate: N / (ms / 1000),
      serverUs: (1000 * (cpuMsOf(server.child.pid) - cpu0)) / N,
      clientUs: (own.user + own.system) / N,
      otherUs: (1000 * (cpuMsOf(other) - other0)) / N,
    };
  }
  await writeRate('warm');
  const alone = await writeRate('w0');
  const watchers = await openWatchers(watcher, 'w10');
  const watched = await writeRate('w10');
  for (const s of watchers) await s.close();
  /** The write rate with the watchers in a process of their own at CPU priority `nice`. */
  async function apartAt(nice) {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--watchers', uri], { stdio: ['pipe', 'pipe', 'inherit'] });
    os.setPriority(child.pid, nice);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const rate = await writeRate('w10', child.pid);
    child.stdin.write('stop\n');
    await new Promise((resolve) => child.on('exit', resolve));
    return rate;
  }
  const apart = await apartAt(19);
  const apartEqual = await apartAt(0);
  const aloneAgain = await writeRate('w0');
  const base = { rate: (alone.rate + aloneAgain.rate) / 2, serverUs: (alone.serverUs + aloneAgain.serverUs) / 2, clientUs: (alone.clientUs + aloneAgain.clientUs) / 2 };
  const vs = (w) =>
    `${w.rate.toFixed(0)} vs ${base.rate.toFixed(0)} (cost ${(base.rate / w.rate).toFixed(2)}x); CPU us/write: server ${w.serverUs.toFixed(0)} vs ${base.serverUs.toFixed(0)}, ` +
    `this process ${w.clientUs.toFixed(0)} vs ${base.clientUs.toFixed(0)}${Number.isNaN(w.otherUs) ? '' : `, the watchers' process ${w.otherUs.toFixed(0)}`}`;

  const figures = {
    'change streams: insert round trip (driver)': `p50 ${pct(rtt, 0.5).toFixed(3)} ms, p99 ${pct(rtt, 0.99).toFixed(3)} ms`,
    'change streams: insert -> event (target p50 <= 2x the round trip)': `p50 ${pct(lat, 0.5).toFixed(3)} ms (${(pct(lat, 0.5) / pct(rtt, 0.5)).toFixed(2)}x), p99 ${pct(lat, 0.99).toFixed(3)} ms`,
    'change streams: writes/s with 10 watchers in the writer\'s process vs none (client-bound)': vs(watched),
    'change streams: writes/s with 10 watchers in their own process at nice 19 vs none (target cost <= 1.5x)': vs(apart),
    'change streams: writes/s with 10 watchers in their own process at equal priority vs none': vs(apartEqual),
  };
  await writer.close();
  await watcher.close();
  await stop(server);
  // As the other child benchmarks: the figures as JSON for run.mjs, or lines when run alone.
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(figures));
  else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
}
