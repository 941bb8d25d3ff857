// node scripts/bench/auth.mjs [--quick]: authentication figures, printed as JSON for run.mjs.
//   - connect + authenticate with SCRAM-SHA-256 (the driver's 15,000 iterations), in ms: the
//     first connection (the client derives the salted password) and the median of later ones
//     (the driver caches it, as the server caches nothing it would need to derive);
//   - round trips (findOne by _id, sequential) on a server with --auth against one without,
//     in alternated chunks: the cost of the per-command access check.
import { MongoClient } from 'mongodb';
import { median, startMayfly, stop } from './processes.mjs';

const quick = process.argv.includes('--quick');
const CHUNKS = quick ? 3 : 9;
const OPS = quick ? 500 : 2000;

const secured = await startMayfly(['--username', 'bench', '--password', 'bench-password']);
const open = await startMayfly();
const authUri = secured.uri.replace('mongodb://', 'mongodb://bench:bench-password@') + '?authMechanism=SCRAM-SHA-256';

const connectMs = async () => {
  const t0 = performance.now();
  const c = new MongoClient(authUri, { maxPoolSize: 1 });
  await c.connect();
  await c.db('admin').command({ ping: 1 });
  const ms = performance.now() - t0;
  await c.close();
  return ms;
};
// Load and warm the driver on a connection without credentials, so that "first" is the first
// authentication and not the driver's own start.
{
  const warm = new MongoClient(open.uri, { maxPoolSize: 1 });
  await warm.connect();
  await warm.db('admin').command({ ping: 1 });
  await warm.close();
}
const first = await connectMs();
const later = [];
for (let i = 0; i < (quick ? 5 : 15); i++) later.push(await connectMs());

const clients = { auth: new MongoClient(authUri, { maxPoolSize: 1 }), open: new MongoClient(open.uri, { maxPoolSize: 1 }) };
for (const c of Object.values(clients)) {
  await c.connect();
  await c.db('bench').collection('rt').insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: i, name: 'user' + i })));
}
const chunk = async (client) => {
  const coll = client.db('bench').collection('rt');
  const t0 = performance.now();
  for (let i = 0; i < OPS; i++) await coll.findOne({ _id: (i * 7919) % 1000 });
  return OPS / ((performance.now() - t0) / 1000);
};
for (let i = 0; i < 2; i++) {
  await chunk(clients.open);
  await chunk(clients.auth);
}
const ratios = [];
const rates = { auth: [], open: [] };
for (let c = 0; c < CHUNKS; c++) {
  const order = c % 2 === 0 ? ['open', 'auth'] : ['auth', 'open'];
  const got = {};
  for (const side of order) got[side] = await chunk(clients[side]);
  rates.auth.push(got.auth);
  rates.open.push(got.open);
  ratios.push(got.auth / got.open);
}
for (const c of Object.values(clients)) await c.close();
await stop(secured);
await stop(open);

console.log(JSON.stringify({
  'connect + authenticate, SCRAM-SHA-256 (15,000 iterations)': `first ${first.toFixed(1)} ms, then median ${median(later).toFixed(1)} ms (the driver caches the salted password)`,
  'findOne by _id sequential, --auth vs without': `${Math.round(median(rates.auth))}/s vs ${Math.round(median(rates.open))}/s = ${median(ratios).toFixed(3)} (median of ${CHUNKS} alternated chunks)`,
}));
