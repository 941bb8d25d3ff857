/**
 * The `cosmosThrottle` fail point of Cosmos DB mode: a test's way to make "the next N
 * operations matching X answer 16500 with RetryAfterMs=M" without a load generator, set like
 * any fail point (`configureFailPoint`, test commands):
 *
 *   { configureFailPoint: 'cosmosThrottle', mode: { times: N } | 'alwaysOn' | 'off' | { skip: n },
 *     data: { commands: ['insert', 'find', ...], retryAfterMs: M, namespace?: 'db.coll' } }
 *
 * A matching request is refused before it runs, exactly as a throttled one (the bulk form for
 * insert, update and delete: every statement not done), whatever the RU budget.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';

/** The fail point's name. */
export const COSMOS_THROTTLE = 'cosmosThrottle';

/** The largest `retryAfterMs` an injection may announce (int32). */
const MAX_RETRY_AFTER_MS = 2147483647;

/** The parsed `data` of a `cosmosThrottle`. */
export interface ThrottleInjection {
  readonly commands: ReadonlySet<string>;
  readonly retryAfterMs: number;
  /** `db.coll`; undefined: any namespace. */
  readonly namespace: string | undefined;
}

/** Checks the `data` of `configureFailPoint: 'cosmosThrottle'` (2 BadValue naming what is wrong). */
export function parseThrottleInjection(data: Document): ThrottleInjection {
  for (const key of Object.keys(data)) {
    if (key !== 'commands' && key !== 'retryAfterMs' && key !== 'namespace') {
      throw new CommandError('BadValue', `cosmosThrottle: unknown data field '${key}'; the fields are commands, retryAfterMs, namespace`);
    }
  }
  const { commands, retryAfterMs, namespace } = data;
  if (!Array.isArray(commands) || commands.length === 0 || !commands.every((c) => typeof c === 'string' && c !== '')) {
    throw new CommandError('BadValue', "cosmosThrottle: 'data.commands' must be a non-empty array of command names, such as ['insert', 'find']");
  }
  const ms = isNumber(retryAfterMs) ? toDouble(retryAfterMs) : Number.NaN;
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_RETRY_AFTER_MS) {
    throw new CommandError('BadValue', `cosmosThrottle: 'data.retryAfterMs' must be a whole number of milliseconds from 0 to ${MAX_RETRY_AFTER_MS}`);
  }
  if (namespace !== undefined && (typeof namespace !== 'string' || !namespace.includes('.'))) {
    throw new CommandError('BadValue', "cosmosThrottle: 'data.namespace' must be a namespace string such as 'db.coll'");
  }
  return { commands: new Set(commands as string[]), retryAfterMs: ms, namespace: namespace as string | undefined };
}

/** Whether a request (its command name, `$db` and body) matches an injection's data. */
export function injectionMatches(data: Document, command: string, db: string, body: Document): boolean {
  let injection: ThrottleInjection;
  try {
    injection = parseThrottleInjection(data);
  } catch {
    return false;
  }
  if (!injection.commands.has(command)) return false;
  if (injection.namespace === undefined) return true;
  const target = command === 'getMore' ? body.collection : body[Object.keys(body)[0] ?? ''];
  return typeof target === 'string' && `${db}.${target}` === injection.namespace;
}
