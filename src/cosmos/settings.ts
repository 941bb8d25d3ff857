/**
 * The Cosmos DB settings of a server started with `--compat cosmos`: the server version, the
 * account capabilities and the rules switched on. `cosmosOptionsProblem` checks what a user gave
 * (the embedding API's `cosmos: {...}`, the command line's flags), `resolveCosmosSettings` turns
 * it into the settings the call sites read (`ServerSettings.cosmos`, null in `--compat mongodb`).
 */
import { parseRequestUnitOptions, REQUEST_UNIT_OPTION_NAMES, RequestUnitOptionError } from './request_unit_options.js';
import { CAPABILITY_NAMES, isCapabilityName, type CapabilityName } from './capabilities.js';
import { RULE_NAMES, isRuleName, type RuleName } from './rule_table.js';
import { COSMOS_SERVER_VERSIONS, COSMOS_VERSIONS, DEFAULT_COSMOS_SERVER_VERSION, isCosmosServerVersion, type CosmosServerVersion, type CosmosVersionFacts } from './versions.js';

/** What a user gives: `MayflyServer.create({ compat: 'cosmos', cosmos: {...} })`. */
export interface CosmosOptions {
  /** '4.2', '5.0', '6.0' or '7.0' (default '7.0'). */
  serverVersion?: CosmosServerVersion;
  /** Account capabilities, e.g. ['EnableTtlOnCustomPath']. */
  capabilities?: readonly CapabilityName[];
  /** Rules to switch on or off one by one (all are on by default), e.g. { sortNeedsIndex: false }. */
  rules?: Partial<Record<RuleName, boolean>>;
  /** Provisioned request units per second (default unlimited): `request_unit_options.ts`. */
  ruPerSecond?: number;
  /** A throttled request waits for its budget instead of answering 16500. */
  serverSideRetry?: boolean;
}

/** The field names of `CosmosOptions`, in the order messages list them. */
export const COSMOS_OPTION_NAMES = ['serverVersion', 'capabilities', 'rules', ...REQUEST_UNIT_OPTION_NAMES] as const;

/** The settings the rules read. */
export interface CosmosSettings {
  readonly serverVersion: CosmosServerVersion;
  /** What the version supports. */
  readonly version: CosmosVersionFacts;
  readonly capabilities: ReadonlySet<CapabilityName>;
  /** Each rule, on or off. */
  readonly rules: Readonly<Record<RuleName, boolean>>;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * What is wrong with `options` as the `cosmos` option (undefined: nothing), as a sentence that
 * starts with the option's name (`cosmos.rules.x must be ...`).
 */
export function cosmosOptionsProblem(options: unknown): string | undefined {
  if (!isPlainObject(options)) return `option 'cosmos' must be an object such as { serverVersion: '7.0', capabilities: ['EnableTtlOnCustomPath'], rules: { sortNeedsIndex: false } }, not ${describe(options)}`;
  for (const name of Object.keys(options)) {
    if (!(COSMOS_OPTION_NAMES as readonly string[]).includes(name)) return `unknown option 'cosmos.${name}'; the Cosmos DB options are ${COSMOS_OPTION_NAMES.join(', ')}`;
  }
  try {
    parseRequestUnitOptions(options, 'cosmos');
  } catch (err) {
    if (err instanceof RequestUnitOptionError) return err.message.replace(/^cosmos: /, '');
    throw err;
  }
  const { serverVersion, capabilities, rules } = options;
  if (serverVersion !== undefined && !isCosmosServerVersion(serverVersion)) {
    return `option 'cosmos.serverVersion' must be one of ${COSMOS_SERVER_VERSIONS.map((v) => `'${v}'`).join(', ')}, not ${describe(serverVersion)}`;
  }
  if (capabilities !== undefined) {
    if (!Array.isArray(capabilities)) return `option 'cosmos.capabilities' must be an array of capability names such as ['EnableTtlOnCustomPath'], not ${describe(capabilities)}`;
    for (const c of capabilities as unknown[]) {
      if (!isCapabilityName(c)) return `option 'cosmos.capabilities' has an unknown capability ${describe(c)}; the capabilities are ${CAPABILITY_NAMES.join(', ')}`;
    }
  }
  if (rules !== undefined) {
    if (!isPlainObject(rules)) return `option 'cosmos.rules' must be an object such as { sortNeedsIndex: false }, not ${describe(rules)}`;
    for (const [name, on] of Object.entries(rules)) {
      if (!isRuleName(name)) return `option 'cosmos.rules' has an unknown rule '${name}'; the rules are ${RULE_NAMES.join(', ')}`;
      if (typeof on !== 'boolean') return `option 'cosmos.rules.${name}' must be true or false, not ${describe(on)}`;
    }
  }
  return undefined;
}

/** The settings from checked `options` (every rule on unless switched off). */
export function resolveCosmosSettings(options: CosmosOptions = {}): CosmosSettings {
  const serverVersion = options.serverVersion ?? DEFAULT_COSMOS_SERVER_VERSION;
  const rules = {} as Record<RuleName, boolean>;
  for (const name of RULE_NAMES) rules[name] = options.rules?.[name] ?? true;
  return {
    serverVersion,
    version: COSMOS_VERSIONS[serverVersion],
    capabilities: new Set(options.capabilities ?? []),
    rules,
  };
}

/** The `mayfly.cosmos` section of getCmdLineOpts for `settings`. */
export function cosmosCmdLine(settings: CosmosSettings): Record<string, unknown> {
  return {
    serverVersion: settings.serverVersion,
    capabilities: [...settings.capabilities].sort(),
    rulesOff: RULE_NAMES.filter((name) => !settings.rules[name]),
  };
}
