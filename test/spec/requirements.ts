/**
 * `runOnRequirements` of the unified test format, evaluated against what the server under test
 * reports: its version (buildInfo `versionArray`), topology (from `hello`), and the facts a
 * standalone Mayfly has (no auth, no Atlas Serverless, no client-side encryption library).
 */

/** What the runner knows about the deployment. */
export interface ServerFacts {
  /** `buildInfo.versionArray`'s first three components. */
  version: [number, number, number];
  /** One of `single`, `replicaset`, `sharded`, `load-balanced`. */
  topology: string;
  auth: boolean;
  serverless: boolean;
  /** Whether the driver has libmongocrypt and crypt_shared/mongocryptd. */
  csfle: boolean;
  /** `getParameter: '*'` reply (for `serverParameters`). */
  parameters: Record<string, unknown>;
}

/** One runOnRequirement object. */
export interface RunOnRequirement {
  minServerVersion?: string;
  maxServerVersion?: string;
  topologies?: string[];
  serverless?: 'require' | 'forbid' | 'allow';
  serverParameters?: Record<string, unknown>;
  auth?: boolean;
  authMechanism?: string;
  csfle?: boolean;
}

/** Parses a version string (`major[.minor[.patch]]`, extra components discarded). */
export function parseVersion(text: string): [number, number, number] {
  const parts = text.split('.').map((p) => Number.parseInt(p, 10));
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0].map((n) => (Number.isNaN(n) ? 0 : n)) as [number, number, number];
}

/** Negative, zero or positive as `a` is older, equal or newer than `b`. */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function numericEquals(a: unknown, b: unknown): boolean {
  const na = typeof a === 'object' && a !== null && 'valueOf' in a ? Number((a as { valueOf(): unknown }).valueOf()) : a;
  const nb = typeof b === 'object' && b !== null && 'valueOf' in b ? Number((b as { valueOf(): unknown }).valueOf()) : b;
  if (typeof na === 'number' && typeof nb === 'number') return na === nb;
  return JSON.stringify(na) === JSON.stringify(nb);
}

/** Why one requirement is unmet, or undefined when it is met. */
export function unmetReason(req: RunOnRequirement, facts: ServerFacts): string | undefined {
  const v = facts.version.join('.');
  if (req.minServerVersion !== undefined && compareVersions(facts.version, parseVersion(req.minServerVersion)) < 0) {
    return `requires server >= ${req.minServerVersion} (Mayfly reports ${v})`;
  }
  if (req.maxServerVersion !== undefined && compareVersions(facts.version, parseVersion(req.maxServerVersion)) > 0) {
    return `requires server <= ${req.maxServerVersion} (Mayfly reports ${v})`;
  }
  if (req.topologies !== undefined) {
    const ok = req.topologies.some((t) => t === facts.topology || (t === 'sharded-replicaset' && facts.topology === 'sharded'));
    if (!ok) return `requires topology ${req.topologies.join('|')} (Mayfly is ${facts.topology})`;
  }
  if (req.serverless === 'require' && !facts.serverless) return 'requires Atlas Serverless';
  if (req.serverless === 'forbid' && facts.serverless) return 'forbids Atlas Serverless';
  if (req.auth === true && !facts.auth) return 'requires authentication (Mayfly has none)';
  if (req.auth === false && facts.auth) return 'requires authentication to be off';
  if (req.authMechanism !== undefined) return `requires auth mechanism ${req.authMechanism} (Mayfly has no authentication)`;
  if (req.csfle === true && !facts.csfle) return 'requires client-side field level encryption (no libmongocrypt here)';
  if (req.csfle === false && facts.csfle) return 'requires client-side field level encryption to be unavailable';
  if (req.serverParameters !== undefined) {
    for (const [name, value] of Object.entries(req.serverParameters)) {
      if (!(name in facts.parameters)) return `requires server parameter ${name} (not supported)`;
      if (!numericEquals(facts.parameters[name], value)) return `requires server parameter ${name}=${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

/** Why none of `reqs` is met (the reasons joined), or undefined when one is met or none given. */
export function requirementsUnmet(reqs: readonly RunOnRequirement[] | undefined, facts: ServerFacts): string | undefined {
  if (reqs === undefined || reqs.length === 0) return undefined;
  const reasons: string[] = [];
  for (const req of reqs) {
    const why = unmetReason(req, facts);
    if (why === undefined) return undefined;
    reasons.push(why);
  }
  return [...new Set(reasons)].join('; or ');
}
