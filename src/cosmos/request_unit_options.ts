/**
 * The request-unit options of Cosmos DB mode (`docs/cosmos_request_units.md`): the provisioned
 * throughput of the account (`--cosmos-ru-per-second N`, `cosmos: { ruPerSecond }`; unlimited
 * by default) and server-side retry (`--cosmos-server-side-retry`, `cosmos: { serverSideRetry }`;
 * Cosmos's `DisableRateLimitingResponses` capability). They apply only with `--compat cosmos`.
 * Parsed strictly here, for the embedding API and the command line alike.
 */

/** What the request-unit model runs with. */
export interface RequestUnitOptions {
  /** RU/s provisioned: a positive integer; null: unlimited (nothing is ever throttled). */
  readonly ruPerSecond: number | null;
  /** A throttled request waits for its budget (up to 60 s, then 50) instead of answering 16500. */
  readonly serverSideRetry: boolean;
}

/** The defaults: unlimited throughput, no server-side retry. */
export const DEFAULT_REQUEST_UNIT_OPTIONS: RequestUnitOptions = { ruPerSecond: null, serverSideRetry: false };

/** The largest `ruPerSecond` accepted (Cosmos's provisioned throughput tops out far below it). */
export const MAX_RU_PER_SECOND = 1_000_000_000;

/** The field names of `cosmos` this module owns. */
export const REQUEST_UNIT_OPTION_NAMES = ['ruPerSecond', 'serverSideRetry'] as const;

/** A bad request-unit option; the message names the option and says what is accepted. */
export class RequestUnitOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestUnitOptionError';
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** Checks an `ruPerSecond` value (`label` names it in the message): a positive integer up to MAX_RU_PER_SECOND. */
export function checkRuPerSecond(value: unknown, label: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_RU_PER_SECOND) {
    throw new RequestUnitOptionError(`${label} must be a whole number of request units per second from 1 to ${MAX_RU_PER_SECOND} (leave it out for unlimited), not ${describe(value)}`);
  }
  return value;
}

/**
 * The request-unit options out of the `cosmos` object of `MayflyServer.create()` (`who` names
 * the caller); fields it does not own are left to the other Cosmos settings. Throws a
 * `RequestUnitOptionError` for a bad value.
 */
export function parseRequestUnitOptions(cosmos: Readonly<Record<string, unknown>> | undefined, who: string): RequestUnitOptions {
  if (cosmos === undefined) return DEFAULT_REQUEST_UNIT_OPTIONS;
  const { ruPerSecond, serverSideRetry } = cosmos;
  if (serverSideRetry !== undefined && typeof serverSideRetry !== 'boolean') {
    throw new RequestUnitOptionError(`${who}: option 'cosmos.serverSideRetry' must be true or false, not ${describe(serverSideRetry)}`);
  }
  return {
    ruPerSecond: ruPerSecond === undefined ? null : checkRuPerSecond(ruPerSecond, `${who}: option 'cosmos.ruPerSecond'`),
    serverSideRetry: serverSideRetry === true,
  };
}

/** `--cosmos-ru-per-second <n>` as typed: digits only, then the same range as the embedding API. */
export function parseRuPerSecondFlag(text: string): number {
  const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1 && n <= MAX_RU_PER_SECOND)) {
    throw new RequestUnitOptionError(`--cosmos-ru-per-second must be a whole number of request units per second from 1 to ${MAX_RU_PER_SECOND}, not ${JSON.stringify(text)}`);
  }
  return n;
}
