/**
 * The `logComponentVerbosity` server parameter (mongod's log_component_settings.cpp and
 * `parseLogComponentSettings`): a verbosity per log component, `-1` meaning "inherit from the
 * parent". The top-level `verbosity` is `logLevel`. Setting it is atomic: the whole document is
 * checked (2 BadValue for an unknown component or a verbosity that is not a 32-bit number) before
 * anything changes. Mayfly's logger has one level, so the per-component values are kept and
 * reported, and the top level drives the logger through `logLevel`.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';
import { isNumber, toDouble } from '../storage/values/numeric.js';
import { isDocument } from '../storage/values/paths.js';
import type { ParameterTable } from './parameters.js';

/** mongod 8.2's log components: name → children. */
interface ComponentTree {
  readonly [name: string]: ComponentTree;
}
const leaf: ComponentTree = {};
const COMPONENTS: ComponentTree = {
  accessControl: leaf,
  assert: leaf,
  command: leaf,
  control: leaf,
  executor: leaf,
  geo: leaf,
  globalIndex: leaf,
  index: leaf,
  network: { asio: leaf, bridge: leaf, connectionPool: leaf },
  processHealth: leaf,
  query: { optimizer: leaf, ce: leaf, sbe: leaf },
  queryStats: leaf,
  replication: { election: leaf, heartbeats: leaf, initialSync: leaf, rollback: leaf },
  sharding: { rangeDeleter: leaf, shardingCatalogRefresh: leaf, migration: leaf, reshard: leaf, migrationPerf: leaf },
  storage: {
    recovery: leaf,
    journal: leaf,
    wt: {
      wtBackup: leaf, wtCheckpoint: leaf, wtCompact: leaf, wtEviction: leaf, wtHS: leaf, wtRecovery: leaf, wtRTS: leaf,
      wtSalvage: leaf, wtTiered: leaf, wtTimestamp: leaf, wtTransaction: leaf, wtVerify: leaf, wtWriteLog: leaf,
    },
  },
  write: leaf,
  ftdc: leaf,
  tracking: leaf,
  transaction: leaf,
  tenantMigration: leaf,
  test: leaf,
  resourceConsumption: leaf,
  streams: leaf,
};

/** A verbosity: a number within 32 bits (2 BadValue otherwise). */
function verbosityOf(path: string, value: unknown): number {
  if (!isNumber(value)) throw new CommandError('BadValue', `Expected ${path} to be a number, but found ${bsonTypeOf(value)}`);
  const d = toDouble(value);
  if (!Number.isFinite(d) || d > 2147483647 || d < -2147483648) throw new CommandError('BadValue', `Invalid verbosity for ${path}: ${d}`);
  return Math.trunc(d);
}

/** Registers `logComponentVerbosity` beside `logLevel` (its top-level verbosity). */
export function registerLogComponentVerbosity(table: ParameterTable, logLevel: { get(): number; set(n: number): void }): void {
  const levels = new Map<string, number>();
  const describe = (tree: ComponentTree, prefix: string): Document => {
    const out: Document = {};
    for (const [name, children] of Object.entries(tree)) {
      const key = prefix === '' ? name : `${prefix}.${name}`;
      out[name] = { verbosity: levels.get(key) ?? -1, ...describe(children, key) };
    }
    return out;
  };
  table.register({
    name: 'logComponentVerbosity',
    get: () => ({ verbosity: logLevel.get(), ...describe(COMPONENTS, '') }),
    set(value) {
      if (!isDocument(value)) throw new CommandError('TypeMismatch', `Expected a document for logComponentVerbosity, but found ${bsonTypeOf(value)}`);
      const changes: Array<[string, number]> = [];
      const walk = (doc: Document, tree: ComponentTree, prefix: string) => {
        for (const [name, v] of Object.entries(doc)) {
          const path = prefix === '' ? `logComponentVerbosity.${name}` : `logComponentVerbosity.${prefix}.${name}`;
          if (name === 'verbosity') {
            changes.push([prefix, verbosityOf(path, v)]);
            continue;
          }
          const children = tree[name];
          if (children === undefined) throw new CommandError('BadValue', `Invalid component name ${path}`);
          const key = prefix === '' ? name : `${prefix}.${name}`;
          if (isDocument(v)) walk(v, children, key);
          else changes.push([key, verbosityOf(path, v)]);
        }
      };
      walk(value, COMPONENTS, '');
      for (const [key, level] of changes) {
        if (key === '') logLevel.set(Math.max(0, level));
        else if (level < 0) levels.delete(key);
        else levels.set(key, level);
      }
    },
    settableAtRuntime: true,
    settableAtStartup: true,
  });
}
