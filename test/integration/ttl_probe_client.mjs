// A findOne client in its own thread, so that its latency measures the server, not a shared
// event loop. Started by ttl_million.test.ts; see there.
import { parentPort, workerData } from 'node:worker_threads';
import { MongoClient } from 'mongodb';

const client = new MongoClient(workerData.uri, { maxPoolSize: 1 });
await client.connect();
const probe = client.db(workerData.db).collection(workerData.collection);
let phase = 'idle';
const latencies = { idle: [], during: [] };
parentPort.on('message', (msg) => {
  phase = msg;
});
parentPort.postMessage('ready');
let i = 0;
while (phase !== 'stop') {
  const started = performance.now();
  const doc = await probe.findOne({ _id: i % 100 });
  const elapsed = performance.now() - started;
  if (doc === null || doc._id !== i % 100) throw new Error(`findOne returned ${JSON.stringify(doc)}`);
  if (phase === 'idle' || phase === 'during') latencies[phase].push(elapsed);
  i++;
}
await client.close();
parentPort.postMessage(latencies);
