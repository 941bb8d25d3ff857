/**
 * The layers of src/ go one way (ARCHITECTURE.md, AGGREGATION.md): every import, value or type,
 * goes from a layer to a lower one or stays within its layer, and no module takes part in an
 * import cycle. The table below is the order, lowest first; a module belongs to the layer of the
 * longest path prefix that names it. Among the rules it keeps: wire and bson at the bottom,
 * storage never importing commands or the server, commands never importing wire.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** The layers, lowest first: [name, rank, path prefixes relative to src/]. Equal ranks do not import each other. */
const LAYERS: ReadonlyArray<readonly [string, number, readonly string[]]> = [
  ['errors', 0, ['errors/']],
  ['util', 0, ['logger.ts', 'version.ts']],
  ['bson', 1, ['bson/']],
  ['wire', 2, ['wire/']],
  ['storage/values', 2, ['storage/values/']],
  ['storage/record', 3, ['storage/record_format.ts', 'storage/record_table.ts', 'storage/record.ts']],
  ['storage/accumulators', 3, ['storage/accumulators/']],
  ['storage/geo', 3, ['storage/geo/']],
  // Text search (tokenizer, stemmer, stop words, scoring): values only, read by $text and the planner.
  ['storage/text', 3, ['storage/text/']],
  // The time-series option rules (values only), read by `$out`'s parser as well as by create and collMod.
  ['storage/timeseries/options', 3, ['storage/timeseries/options.ts']],
  ['storage/expression', 4, ['storage/expression/']],
  ['storage/query', 5, ['storage/query/']],
  ['storage/projection', 6, ['storage/projection/']],
  ['storage/aggregation', 7, ['storage/aggregation/']],
  ['storage/update', 8, ['storage/update/']],
  ['storage/indexes', 9, ['storage/indexes/']],
  ['storage', 10, ['storage/']],
  ['storage/planner', 11, ['storage/planner/']],
  ['storage/validation', 12, ['storage/validation/']],
  ['storage/versioned', 13, ['storage/versioned/']],
  // The write executors, above everything they run; their units and observers sit with the collection.
  ['storage/write', 13.5, ['storage/write/']],
  ['storage', 10, ['storage/write/write_unit.ts', 'storage/write/observers.ts']],
  ['ttl', 14, ['ttl/']],
  // The session catalog: above storage, below the server and the commands that touch sessions.
  ['sessions', 14.5, ['sessions/']],
  // Authentication and authorization: users and roles in the catalog, below the server that holds them.
  ['auth', 14.5, ['auth/']],
  // Azure Cosmos DB for MongoDB's settings, tables and rules: read by the server, called by the commands.
  ['cosmos', 14.7, ['cosmos/']],
  ['server', 15, ['server/']],
  // Cosmos DB mode's request units: metered around every command dispatch runs.
  ['cosmos/request_units', 15.5, ['cosmos/request_units/']],
  ['commands', 16, ['commands/']],
  // The listener: the TCP server and its connections, above the commands they dispatch to.
  ['server/listener', 17, ['server/server.ts', 'server/connection.ts']],
  ['entry', 18, ['index.ts', 'cli.ts', 'options.ts', 'testing/']],
];

function layerOf(file: string): readonly [string, number] {
  let best: readonly [string, number, string] | undefined;
  for (const [name, rank, prefixes] of LAYERS) {
    for (const prefix of prefixes) {
      if ((file === prefix || (prefix.endsWith('/') && file.startsWith(prefix))) && (best === undefined || prefix.length > best[2].length)) best = [name, rank, prefix];
    }
  }
  if (best === undefined) throw new Error(`src/${file} belongs to no layer: add it to the table`);
  return [best[0], best[1]];
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|cts|mts)$/.test(name)) out.push(path.relative(SRC, p).split(path.sep).join('/'));
  }
  return out.sort();
}

/** The relative imports of a module (static, re-exports, `import type`, dynamic with a literal). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => {
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), s));
      return resolved.replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts').replace(/\.mjs$/, '.mts');
    });
}

const FILES = sourceFiles(SRC);
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));

type Graph = ReadonlyMap<string, readonly string[]>;

/** The strongly connected components of more than one module (or a module importing itself). */
function cycles(graph: Graph): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const f of graph.keys()) if (!indices.has(f)) visit(f);
  return found;
}

/** Layers that must not import another even where the ranks would allow it: [from, to, why]. */
const FORBIDDEN: ReadonlyArray<readonly [string, string, string]> = [
  ['commands', 'wire', 'the listener decodes requests and encodes replies; commands see documents'],
];

/** Every import against the direction of the layers, or across two of equal rank, or forbidden. */
function violations(graph: Graph): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const [from, fromRank] = layerOf(file);
    for (const target of targets) {
      if (!graph.has(target)) continue;
      const [to, toRank] = layerOf(target);
      if (to === from) continue;
      if (toRank >= fromRank) wrong.push(`${file} (${from}) -> ${target} (${to})`);
      else if (FORBIDDEN.some(([f, t]) => f === from && t === to)) wrong.push(`${file} (${from}) -> ${target} (${to}): forbidden`);
    }
  }
  return wrong;
}

describe('architecture', () => {
  test('every relative import names a module of src/', () => {
    const missing = [...GRAPH].flatMap(([file, targets]) => targets.filter((t) => !GRAPH.has(t)).map((t) => `${file} -> ${t}`));
    expect(missing).toEqual([]);
  });

  test('every module belongs to a layer', () => {
    expect(FILES.filter((f) => LAYERS.every(([, , prefixes]) => !prefixes.some((p) => f === p || (p.endsWith('/') && f.startsWith(p)))))).toEqual([]);
  });

  test('no import cycle, value or type', () => {
    expect(cycles(GRAPH)).toEqual([]);
  });

  test('imports go down the layers, never up or across, and never along a forbidden edge', () => {
    expect(violations(GRAPH)).toEqual([]);
  });

  test('the checks catch an upward import, a forbidden edge and a cycle', () => {
    // A check that cannot fail checks nothing: the same functions, applied to made-up modules.
    const made = new Map<string, string[]>([
      ['storage/collection.ts', ['commands/crud/find.ts']],
      ['commands/crud/find.ts', ['wire/op_msg.ts', 'storage/collection.ts']],
      ['wire/op_msg.ts', []],
      ['storage/values/compare.ts', ['storage/values/compare.ts']],
    ]);
    expect(violations(made)).toEqual([
      'storage/collection.ts (storage) -> commands/crud/find.ts (commands)',
      'commands/crud/find.ts (commands) -> wire/op_msg.ts (wire): forbidden',
    ]);
    expect(cycles(made)).toEqual([['commands/crud/find.ts', 'storage/collection.ts'], ['storage/values/compare.ts']]);
    expect(layerOf('server/server.ts')[0]).toBe('server/listener');
    expect(layerOf('storage/record_format.ts')[0]).toBe('storage/record');
  });
});
