/**
 * A million documents expiring at once (TTL.md, PERFORMANCE.md): under the Cosmos policy they are
 * invisible the instant they expire; one reaper pass then deletes them all while a concurrent
 * client's findOne keeps answering. The client runs in its own thread (ttl_probe_client.mjs) so
 * its latencies measure the server, not a shared event loop. The figures are printed for the
 * README: deletions per second, and findOne p50/p99 idle and during the pass.
 */
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { Long } from 'mongodb';
import { startHarness } from './harness.js';
import { advance, runPass, ttlMetrics } from './ttl_helpers.js';

const DOCS = 1_000_000;
const BATCH = 20_000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

test('1,000,000 expired documents: invisible at once, then one pass deletes them all while findOne keeps answering', async () => {
  const h = await startHarness({ clock: 'manual' }, { maxPoolSize: 4 });
  let worker: Worker | undefined;
  try {
    const big = h.db.collection('big');
    await big.createIndex({ _ts: 1 }, { expireAfterSeconds: 60 });
    const probe = h.db.collection('probe');
    await probe.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, v: i })));
    for (let i = 0; i < DOCS; i += BATCH) {
      await big.insertMany(Array.from({ length: BATCH }, (_, j) => ({ _id: i + j, n: i + j })), { ordered: false });
    }
    expect(await big.estimatedDocumentCount()).toBe(DOCS);

    worker = new Worker(new URL('./ttl_probe_client.mjs', import.meta.url), {
      workerData: { uri: h.server.getUri(), db: h.db.databaseName, collection: 'probe' },
    });
    const probeClient = worker;
    const latencies = new Promise<{ idle: number[]; during: number[] }>((resolve, reject) => {
      probeClient.on('message', (msg) => {
        if (msg !== 'ready') resolve(msg);
      });
      probeClient.once('error', reject);
    });
    await new Promise((resolve) => probeClient.once('message', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // idle findOne samples

    await advance(h.client, 60);
    // Invisible the instant they expire, before any deletion.
    expect(await big.countDocuments()).toBe(0);
    expect(await big.findOne({ _id: 123_456 })).toBeNull();

    worker.postMessage('during');
    const started = performance.now();
    const pass = await runPass(h.client);
    const seconds = (performance.now() - started) / 1000;
    worker.postMessage('stop');
    const { idle, during } = await latencies;

    expect(pass.deleted).toEqual(Long.fromNumber(DOCS));
    expect((await ttlMetrics(h.client)).deletedDocuments).toEqual(Long.fromNumber(DOCS));
    expect(await probe.countDocuments()).toBe(100);

    const figures = {
      deletionsPerSecond: Math.round(DOCS / seconds),
      passSeconds: Number(seconds.toFixed(2)),
      findOneDuringPass: during.length,
      idleP50Ms: Number(percentile(idle, 0.5).toFixed(2)),
      idleP99Ms: Number(percentile(idle, 0.99).toFixed(2)),
      passP50Ms: Number(percentile(during, 0.5).toFixed(2)),
      passP99Ms: Number(percentile(during, 0.99).toFixed(2)),
      passMaxMs: Number(Math.max(...during).toFixed(2)),
      p99Ratio: Number((percentile(during, 0.99) / percentile(idle, 0.99)).toFixed(2)),
    };
    console.log(`TTL million: ${JSON.stringify(figures)}`);
    // The client was served all along: it answered throughout the pass, never waiting for all of it.
    expect(during.length).toBeGreaterThanOrEqual(50);
    expect(Math.max(...during)).toBeLessThan((seconds * 1000) / 4);
  } finally {
    await worker?.terminate();
    await h.close();
  }
}, 120_000);
