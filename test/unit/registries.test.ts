/**
 * The tables of things a client names: commands, aggregation stages, expression operators,
 * accumulators and update operators. For each: the table is sorted and names nothing twice,
 * every registered name is in its catalogue (the catalogue being sorted and without repeats
 * too), and every definition a file of its folder exports is in the table, so a new file that
 * is not registered fails here instead of answering 238 in silence. No operator file imports
 * another (shared code goes to `_internal` or lower layers); stages may, since an alias
 * (`$set`) or a desugaring (`$sortByCount`) is defined by the stage it stands for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { MAYFLY_COMMANDS, MONGOD_COMMANDS } from '../../src/commands/catalogue.js';
import { unimplementedCommandNames } from '../../src/commands/not_implemented.js';
import { COMMANDS, registry } from '../../src/commands/registry.js';
import { ACCUMULATOR_CATALOGUE } from '../../src/storage/accumulators/catalogue.js';
import { ACCUMULATORS } from '../../src/storage/accumulators/index.js';
import { UNSUPPORTED_ACCUMULATORS } from '../../src/storage/accumulators/registry.js';
import { STAGE_CATALOGUE } from '../../src/storage/aggregation/catalogue.js';
import { UNSUPPORTED_STAGES } from '../../src/storage/aggregation/registry.js';
import { STAGES } from '../../src/storage/aggregation/stages/index.js';
import { EXPRESSION_CATALOGUE } from '../../src/storage/expression/catalogue.js';
import { EXPRESSION_GROUPS, UNSUPPORTED_EXPRESSIONS } from '../../src/storage/expression/registry.js';
import { UPDATE_OPERATOR_CATALOGUE } from '../../src/storage/update/catalogue.js';
import { UPDATE_OPERATORS } from '../../src/storage/update/modifiers/index.js';
import { UNSUPPORTED_UPDATE_OPERATORS } from '../../src/storage/update/registry.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Files that hold no definition of their own: tables, contracts, shared helpers. */
const NOT_DEFINITIONS = new Set(['index.ts', 'types.ts', 'catalogue.ts', 'registry.ts', '_internal.ts']);

interface Named {
  readonly name: string;
}

/** The `.ts` files of `folder` (relative to src/) that may define things, `_internal` ones left out. */
function definitionFiles(folder: string, recursive: boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        if (recursive && entry !== '_internal') walk(full);
      } else if (entry.endsWith('.ts') && !NOT_DEFINITIONS.has(entry)) {
        out.push(full);
      }
    }
  };
  walk(path.join(SRC, folder));
  return out;
}

/** Every export of the files that `isDefinition` recognises, with the file it came from. */
async function exportedDefinitions(files: readonly string[], isDefinition: (v: unknown) => v is Named) {
  const found: { file: string; definition: Named }[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (isDefinition(value)) found.push({ file: path.relative(SRC, file), definition: value });
    }
  }
  return found;
}

/** The definition files among `files` that a file of `files` imports (there should be none). */
function crossImports(files: readonly string[]): string[] {
  const set = new Set(files);
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from '(\.[^']+)\.js'/g)) {
      const target = path.resolve(path.dirname(file), `${m[1]}.ts`);
      if (set.has(target)) found.push(`${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
    }
  }
  return found;
}

/**
 * The files define exactly the table: each file one definition (`oneEach`; commands' folders also
 * hold helper files), every definition in the table, and as many definitions as the table has.
 */
async function expectFilesRegistered(files: readonly string[], isDefinition: (v: unknown) => v is Named, table: readonly Named[], oneEach = true) {
  const found = await exportedDefinitions(files, isDefinition);
  if (oneEach) expect(found.map((f) => f.file)).toEqual(files.map((f) => path.relative(SRC, f)));
  expect(found.filter((f) => !table.includes(f.definition)).map((f) => f.file)).toEqual([]);
  expect(found.length).toBe(table.length);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Entries sorted by code point, and no entry twice. */
function expectSortedAndUnique(names: readonly string[]): void {
  expect(names).toEqual([...names].sort());
  expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
}

interface TableCase {
  readonly table: string;
  readonly names: readonly string[];
  readonly catalogue: readonly string[];
  readonly unsupported: ReadonlySet<string>;
}

/** The checks every table shares: sorted, unique, within its catalogue, unsupported = catalogue − table. */
function tableChecks(c: TableCase): void {
  test(`${c.table}: the table is sorted and names nothing twice`, () => {
    expectSortedAndUnique(c.names);
  });
  test(`${c.table}: the catalogue is sorted and names nothing twice`, () => {
    expectSortedAndUnique(c.catalogue);
  });
  test(`${c.table}: every registered name is in the catalogue`, () => {
    const known = new Set(c.catalogue);
    expect(c.names.filter((n) => !known.has(n))).toEqual([]);
  });
  test(`${c.table}: "not supported yet" is exactly catalogue − table`, () => {
    const have = new Set(c.names);
    expect([...c.unsupported].sort()).toEqual(c.catalogue.filter((n) => !have.has(n)).sort());
  });
}

describe('commands', () => {
  const catalogue = [...MONGOD_COMMANDS, ...MAYFLY_COMMANDS];
  tableChecks({
    table: 'commands',
    names: COMMANDS.map((d) => d.name),
    catalogue: [...catalogue].sort(),
    unsupported: new Set(unimplementedCommandNames(COMMANDS)),
  });

  test('each catalogue list is sorted, and the two do not overlap', () => {
    expectSortedAndUnique(MONGOD_COMMANDS);
    expectSortedAndUnique(MAYFLY_COMMANDS);
    expect(MAYFLY_COMMANDS.filter((n) => MONGOD_COMMANDS.includes(n))).toEqual([]);
  });

  test('no alias is also a name, and the registry answers every name and alias', () => {
    const names = COMMANDS.flatMap((d) => [d.name, ...(d.aliases ?? [])]);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    for (const d of COMMANDS) {
      for (const n of [d.name, ...(d.aliases ?? [])]) expect(registry.get(n)).toBe(d);
    }
  });

  test('an unimplemented catalogue command is registered to answer 238, and nothing else is', () => {
    const implemented = new Set(COMMANDS.flatMap((d) => [d.name, ...(d.aliases ?? [])]));
    const others = [...registry.keys()].filter((n) => !implemented.has(n)).sort();
    expect(others).toEqual(unimplementedCommandNames(COMMANDS));
  });

  test('every command file under src/commands/<group>/ is registered', async () => {
    const groups = readdirSync(path.join(SRC, 'commands')).filter((e) => statSync(path.join(SRC, 'commands', e)).isDirectory());
    const files = groups.flatMap((g) => definitionFiles(path.join('commands', g), true));
    const isCommand = (v: unknown): v is Named =>
      isObject(v) && typeof v.name === 'string' && typeof v.run === 'function' && typeof v.help === 'string';
    await expectFilesRegistered(files, isCommand, COMMANDS, false);
  });
});

describe('aggregation stages', () => {
  tableChecks({
    table: 'stages',
    names: STAGES.map((d) => d.name),
    catalogue: STAGE_CATALOGUE.map(([name]) => name),
    unsupported: UNSUPPORTED_STAGES,
  });

  test('every file of aggregation/stages/ defines exactly one registered stage', async () => {
    const files = definitionFiles('storage/aggregation/stages', false);
    const isStage = (v: unknown): v is Named =>
      isObject(v) && typeof v.name === 'string' && typeof v.parse === 'function' && isObject(v.constraints);
    await expectFilesRegistered(files, isStage, STAGES);
  });
});

describe('expression operators', () => {
  const all = Object.values(EXPRESSION_GROUPS).flat();
  tableChecks({
    table: 'expressions',
    names: [...all.map((d) => d.name)].sort(),
    catalogue: EXPRESSION_CATALOGUE,
    unsupported: UNSUPPORTED_EXPRESSIONS,
  });

  test('each group index is sorted, and no operator is in two groups', () => {
    for (const operators of Object.values(EXPRESSION_GROUPS)) expectSortedAndUnique(operators.map((d) => d.name));
    const names = all.map((d) => d.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  test('every file of operators/<group>/ defines exactly one operator, registered in that group', async () => {
    const groupFolders = readdirSync(path.join(SRC, 'storage/expression/operators')).sort();
    expect(groupFolders).toEqual(Object.keys(EXPRESSION_GROUPS));
    const isOperator = (v: unknown): v is Named =>
      isObject(v) && typeof v.name === 'string' && v.name.startsWith('$') && typeof v.parse === 'function';
    for (const [group, operators] of Object.entries(EXPRESSION_GROUPS)) {
      const files = definitionFiles(`storage/expression/operators/${group}`, false);
      await expectFilesRegistered(files, isOperator, operators);
    }
  });

  test('no operator file imports another', () => {
    const files = Object.keys(EXPRESSION_GROUPS).flatMap((g) => definitionFiles(`storage/expression/operators/${g}`, false));
    expect(crossImports(files)).toEqual([]);
  });
});

describe('accumulators', () => {
  tableChecks({
    table: 'accumulators',
    names: ACCUMULATORS.map((d) => d.name),
    catalogue: ACCUMULATOR_CATALOGUE,
    unsupported: UNSUPPORTED_ACCUMULATORS,
  });

  test('every file of accumulators/ defines exactly one registered accumulator', async () => {
    const files = definitionFiles('storage/accumulators', false);
    const isAccumulator = (v: unknown): v is Named =>
      isObject(v) && typeof v.name === 'string' && typeof v.create === 'function' && typeof v.argument === 'string';
    await expectFilesRegistered(files, isAccumulator, ACCUMULATORS);
  });

  test('no accumulator file imports another', () => {
    expect(crossImports(definitionFiles('storage/accumulators', false))).toEqual([]);
  });
});

describe('update operators', () => {
  tableChecks({
    table: 'update operators',
    names: UPDATE_OPERATORS.map((d) => d.name),
    catalogue: UPDATE_OPERATOR_CATALOGUE,
    unsupported: UNSUPPORTED_UPDATE_OPERATORS,
  });

  test('every file of update/modifiers/ defines exactly one registered operator', async () => {
    const files = definitionFiles('storage/update/modifiers', false);
    const isOperator = (v: unknown): v is Named =>
      isObject(v) && typeof v.name === 'string' && typeof v.parse === 'function' && typeof v.kind === 'string';
    await expectFilesRegistered(files, isOperator, UPDATE_OPERATORS);
  });

  test('no operator file imports another', () => {
    expect(crossImports(definitionFiles('storage/update/modifiers', false))).toEqual([]);
  });
});
