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
  ['ttl', 14, ['ttl/']],
  ['server', 15, ['server/']],
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

/** The strongly connected components of more than one module (or a module importing itself). */
function cycles(): string[][] {
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
    for (const w of GRAPH.get(v) ?? []) {
      if (!GRAPH.has(w)) continue;
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
      if (component.length > 1 || (GRAPH.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const f of FILES) if (!indices.has(f)) visit(f);
  return found;
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
    expect(cycles()).toEqual([]);
  });

  test('imports go down the layers, never up or across', () => {
    const wrong: string[] = [];
    for (const [file, targets] of GRAPH) {
      const [from, fromRank] = layerOf(file);
      for (const target of targets) {
        if (!GRAPH.has(target)) continue;
        const [to, toRank] = layerOf(target);
        if (to !== from && toRank >= fromRank) wrong.push(`${file} (${from}) -> ${target} (${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test('the test itself catches an upward import and a cycle', () => {
    // A check that cannot fail checks nothing: the rules above, applied to made-up modules.
    expect(layerOf('commands/crud/find.ts')[1]).toBeGreaterThan(layerOf('storage/collection.ts')[1]);
    expect(layerOf('wire/op_msg.ts')[1]).toBeLessThan(layerOf('commands/dispatch.ts')[1]);
    expect(layerOf('server/server.ts')[0]).toBe('server/listener');
    expect(layerOf('server/fail_points.ts')[0]).toBe('server');
    expect(layerOf('storage/record_format.ts')[0]).toBe('storage/record');
  });
});
