/**
 * Fail points: the test hooks mongod enables with `enableTestCommands` and configures with
 * `configureFailPoint` (mongo/src/mongo/util/fail_point.cpp). Mayfly has one, `failCommand`
 * (mongo/src/mongo/db/commands.cpp, `CommandHelpers::shouldActivateFailCommandFailPoint` and
 * `evaluateFailCommandFailPoint`; service_entry_point_common.cpp for `writeConcernError`),
 * which drivers' and applications' test suites use to exercise retries and error handling:
 *
 *   { configureFailPoint: 'failCommand', mode: 'alwaysOn' | 'off' | {times: n} | {skip: n} |
 *     {activationProbability: p}, data: { failCommands: [...], errorCode, errorLabels,
 *     closeConnection, blockConnection, blockTimeMS, writeConcernError, appName, namespace,
 *     threadName, failAllCommands, failInternalCommands, errorExtraInfo } }
 *
 * A fail point is checked at a site with a predicate over its data; only when the predicate
 * holds does the mode count (`times` counts down, `skip` counts skips) and, when it fires,
 * `timesEntered` go up. `failCommand` has two sites: before a command runs (it fires only when
 * the data asks for `errorCode`, `closeConnection` or `blockConnection`) and after a command
 * that supports a write concern ran (when the data has `writeConcernError`). Each server
 * instance has its own fail points.
 *
 * `failInternalCommands` is about mongod's internal clients (other members of a cluster); every
 * Mayfly client is external, so it changes nothing, and `hello`/`isMaster` are failed like any
 * other command, as mongod does for drivers (the SDAM tests fail a handshake that way, with
 * `appName`). Not done: `tassert`, `failLocalClients` (no direct clients), and `errorExtraInfo`
 * beyond the fields of 121 (`errInfo`) and 11000 (`keyPattern`, `keyValue`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Document } from '../bson/library.js';
import type { ConnectionState } from './services.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';
import { isNumber, toDouble } from '../storage/values/numeric.js';
import { formatElement } from '../storage/values/format.js';

/** A fail point's modes (`FailPoint::Mode`). */
export const FailPointModes = ['off', 'alwaysOn', 'nTimes', 'skip', 'random'] as const;
/** One of `FailPointModes`. */
export type FailPointMode = (typeof FailPointModes)[number];

/** A parsed `configureFailPoint` (`FailPoint::ModeOptions`). */
export interface FailPointSettings {
  readonly mode: FailPointMode;
  /** `times`, `skip`, or the activation threshold of `random` (p × 2^31-1). */
  readonly value: number;
  readonly data: Document;
}

const INT32_MAX = 2147483647;

/** `bsonExtractIntegerField`: a number with an exact 64-bit integer value (14 / 2 otherwise). */
function extractInteger(obj: Document, field: string): number {
  const v = obj[field];
  if (!isNumber(v)) {
    throw new CommandError('TypeMismatch', `Expected field "${field}" to have numeric type, but found ${bsonTypeOf(v)}`);
  }
  const d = toDouble(v);
  if (!Number.isInteger(d) || Math.abs(d) >= 2 ** 63) {
    throw new CommandError(
      'BadValue',
      `Expected field "${field}" to have a value exactly representable as a 64-bit integer, but found ${formatElement(field, v)}`,
    );
  }
  return d;
}

/** A counter of `mode` (`times` or `skip`): 0 ≤ n ≤ 2^31-1. */
function modeCounter(modeObj: Document, field: 'times' | 'skip'): number {
  const n = extractInteger(modeObj, field);
  if (n < 0) throw new CommandError('BadValue', `'${field}' option to 'mode' must be positive`);
  if (n > INT32_MAX) throw new CommandError('BadValue', `'${field}' option to 'mode' is too large`);
  return n;
}

/** `FailPoint::parseBSON`: the `mode` and `data` of a configureFailPoint command. */
export function parseFailPointSettings(cmd: Document): FailPointSettings {
  const mode = cmd.mode;
  let parsed: { mode: FailPointMode; value: number };
  if (mode === undefined) {
    throw new CommandError('IllegalOperation', "When setting a failpoint, you must supply a 'mode'");
  } else if (typeof mode === 'string') {
    if (mode === 'off') parsed = { mode: 'off', value: 0 };
    else if (mode === 'alwaysOn') parsed = { mode: 'alwaysOn', value: 0 };
    else throw new CommandError('BadValue', `unknown mode: ${mode}`);
  } else if (bsonTypeOf(mode) === 'object') {
    const modeObj = mode as Document;
    if (Object.hasOwn(modeObj, 'times')) parsed = { mode: 'nTimes', value: modeCounter(modeObj, 'times') };
    else if (Object.hasOwn(modeObj, 'skip')) parsed = { mode: 'skip', value: modeCounter(modeObj, 'skip') };
    else if (Object.hasOwn(modeObj, 'activationProbability')) {
      const p = modeObj.activationProbability;
      if (!isNumber(p)) {
        throw new CommandError('TypeMismatch', "the 'activationProbability' option to 'mode' must be a double between 0 and 1");
      }
      const probability = toDouble(p);
      if (!(probability >= 0 && probability <= 1)) {
        throw new CommandError('BadValue', `activationProbability must be between 0.0 and 1.0; found ${probability}`);
      }
      parsed = { mode: 'random', value: Math.trunc(INT32_MAX * probability) };
    } else {
      throw new CommandError(
        'BadValue',
        "'mode' must be one of 'off', 'alwaysOn', '{times:n}', '{skip:n}' or '{activationProbability:p}'",
      );
    }
  } else {
    throw new CommandError('TypeMismatch', "'mode' must be a string or JSON object");
  }
  let data: Document = {};
  if (Object.hasOwn(cmd, 'data')) {
    const t = bsonTypeOf(cmd.data);
    if (t !== 'object' && t !== 'array') throw new CommandError('TypeMismatch', "the 'data' option must be a JSON object");
    data = cmd.data as Document;
  }
  return { ...parsed, data };
}

/** One fail point: its settings and how many times it fired (`FailPoint`). */
export class FailPoint {
  private settings: FailPointSettings = { mode: 'off', value: 0, data: {} };
  /** What is left of `times`/`skip`. */
  private counter = 0;
  private entered = 0;
  private readonly random: () => number;

  /** A fail point, off; `random` returns a uniform number in [0, 1) (for activationProbability). */
  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  /** False while the fail point is off (a site may then skip its check entirely). */
  get active(): boolean {
    return this.settings.mode !== 'off';
  }

  /** How many times the fail point fired since the server started. */
  get timesEntered(): number {
    return this.entered;
  }

  /** Applies new settings (`FailPoint::setMode`); returns `timesEntered` so far. */
  configure(settings: FailPointSettings): number {
    this.settings = settings;
    this.counter = settings.value;
    return this.entered;
  }

  /**
   * Checks the fail point at a site: `applies` is asked about the data first (when it says no,
   * nothing is counted), then the mode decides. Returns the data when the fail point fires.
   */
  check(applies: (data: Document) => boolean): Document | undefined {
    const { mode, value, data } = this.settings;
    if (mode === 'off' || !applies(data)) return undefined;
    switch (mode) {
      case 'alwaysOn':
        break;
      case 'random':
        if (!(Math.floor(this.random() * 2147483648) < value)) return undefined;
        break;
      case 'nTimes':
        this.counter--;
        if (this.counter <= 0) this.settings = { ...this.settings, mode: 'off' };
        break;
      case 'skip':
        if (this.counter > 0) {
          this.counter--;
          return undefined;
        }
        break;
    }
    this.entered++;
    return data;
  }
}

/** The fail points of one server. */
export class FailPointRegistry {
  /** `failCommand`. */
  readonly failCommand = new FailPoint();
  /**
   * `onPrimaryTransactionalWrite`: checked once per statement of a retryable write
   * (commands/sessions/retryable_write.ts); `closeConnection` (default true) drops the connection
   * after the statement, `failBeforeCommitExceptionCode` fails the statement before it commits.
   */
  readonly onPrimaryTransactionalWrite = new FailPoint();
  /**
   * `cosmosThrottle` (Cosmos DB mode only): the requests it matches answer 16500 with the
   * `RetryAfterMs` its data names (src/cosmos/request_units/injection.ts).
   */
  readonly cosmosThrottle = new FailPoint();

  /**
   * `failGetMoreAfterCursorCheckout`: a getMore fails with `data.errorCode` once it has its
   * cursor (commands/crud/get_more.ts); on a change stream the error is labelled resumable as
   * mongod labels a real one.
   */
  readonly failGetMoreAfterCursorCheckout = new FailPoint();

  /** The fail point called `name`, if Mayfly has it. */
  find(name: string): FailPoint | undefined {
    if (name === 'failCommand') return this.failCommand;
    if (name === 'cosmosThrottle') return this.cosmosThrottle;
    if (name === 'failGetMoreAfterCursorCheckout') return this.failGetMoreAfterCursorCheckout;
    return name === 'onPrimaryTransactionalWrite' ? this.onPrimaryTransactionalWrite : undefined;
  }
}

const REGISTRIES = new WeakMap<object, FailPointRegistry>();

/** The fail points of `server` (created, all off, on first use). */
export function failPointsOf(server: object): FailPointRegistry {
  let registry = REGISTRIES.get(server);
  if (registry === undefined) {
    registry = new FailPointRegistry();
    REGISTRIES.set(server, registry);
  }
  return registry;
}

// ---- failCommand ------------------------------------------------------------------------

/** What `dispatch` returns instead of a reply when the connection is to be closed unanswered. */
export const CLOSE_CONNECTION: unique symbol = Symbol('closeConnection');

/** The command a `failCommand` check is about. */
export interface FailCommandTarget {
  /** The command's name (its definition's, not the alias the client used). */
  readonly command: string;
  /** The other names the command answers to. */
  readonly aliases: readonly string[];
  readonly body: Document;
  readonly db: string;
  readonly connection: ConnectionState;
}

/** Commands that accept a write concern (`supportsWriteConcern`): the writeConcernError site. */
const WRITE_CONCERN_COMMANDS = new Set([
  'insert', 'update', 'delete', 'findAndModify', 'bulkWrite', 'create', 'drop', 'dropDatabase',
  'createIndexes', 'dropIndexes', 'collMod', 'renameCollection', 'commitTransaction', 'abortTransaction',
]);

function supportsWriteConcern(target: FailCommandTarget): boolean {
  if (WRITE_CONCERN_COMMANDS.has(target.command)) return true;
  if (target.command !== 'aggregate' || !Array.isArray(target.body.pipeline)) return false;
  const last = target.body.pipeline[target.body.pipeline.length - 1] as Document | undefined;
  const stage = last && bsonTypeOf(last) === 'object' ? Object.keys(last)[0] : undefined;
  return stage === '$out' || stage === '$merge';
}

/** `BSONObj::getStringField`: the string, or '' for anything else. */
function stringField(data: Document, field: string): string {
  const v = data[field];
  return typeof v === 'string' ? v : '';
}

/** The application name of the client (a first `hello` carries it in its body). */
function appNameOf(target: FailCommandTarget): string {
  let metadata = target.connection.clientMetadata;
  if (metadata === null && (target.command === 'hello' || target.command === 'isMaster')) {
    metadata = bsonTypeOf(target.body.client) === 'object' ? (target.body.client as Document) : null;
  }
  const application = metadata?.application;
  if (bsonTypeOf(application) !== 'object') return '';
  const name = (application as Document).name;
  return typeof name === 'string' ? name : '';
}

/** The namespace a command works on (`CommandInvocation::ns()`), for the `namespace` filter. */
function namespaceOf(target: FailCommandTarget): string {
  const { command, body, db } = target;
  if (command === 'getMore') return typeof body.collection === 'string' ? `${db}.${body.collection}` : db;
  const first = body[Object.keys(body)[0] ?? ''];
  return typeof first === 'string' ? `${db}.${first}` : db;
}

/** `CommandHelpers::shouldActivateFailCommandFailPoint`. Mayfly's clients are all external. */
function failCommandApplies(data: Document, target: FailCommandTarget): boolean {
  const { command, connection } = target;
  if (command === 'configureFailPoint') return false;
  if (Object.hasOwn(data, 'threadName') && `conn${connection.id}` !== stringField(data, 'threadName')) return false;
  if (Object.hasOwn(data, 'appName') && appNameOf(target) !== stringField(data, 'appName')) return false;
  if (Object.hasOwn(data, 'namespace') && namespaceOf(target) !== stringField(data, 'namespace')) return false;
  if (Object.hasOwn(data, 'failAllCommands')) return true;
  const list = data.failCommands;
  const t = bsonTypeOf(list);
  if (t !== 'object' && t !== 'array') return false;
  const names = new Set([target.command, ...target.aliases]);
  return Object.values(list as Document).some((name) => typeof name === 'string' && names.has(name));
}

/** `bsonExtractBooleanField(...).isOK() && value`: only a boolean true counts. */
function flag(data: Document, field: string): boolean {
  return data[field] === true;
}

/** An exact integer field, or undefined when it is absent or not one (`bsonExtractIntegerField` fails). */
function integerField(data: Document, field: string): number | undefined {
  if (!Object.hasOwn(data, field)) return undefined;
  try {
    return extractInteger(data, field);
  } catch {
    return undefined;
  }
}

/** The `errorLabels` a fired fail point imposes on the command's error reply, if an array. */
function errorLabelsOf(data: Document): unknown[] | undefined {
  return Array.isArray(data.errorLabels) ? (data.errorLabels as unknown[]) : undefined;
}

/** The reply fields of `errorExtraInfo` that the error code carries (others are dropped). */
function extraInfoFields(code: number, info: Document): Document | undefined {
  const pick = (fields: readonly string[]): Document => {
    const out: Document = {};
    for (const f of fields) if (Object.hasOwn(info, f)) out[f] = info[f];
    return out;
  };
  if (code === 121) return pick(['errInfo']);
  if (code === 11000) return pick(['keyPattern', 'keyValue']);
  return undefined;
}

const FAILPOINT_MESSAGE = "Failing command via 'failCommand' failpoint";

/** What `failCommand` does to one command: checked before it runs, and after. */
export interface FailCommandScope {
  /** True when the connection is to be closed without a reply. */
  readonly closeConnection: boolean;
  /** The command's reply, with an injected `writeConcernError` (and `errorLabels`) if any. */
  onReply(reply: Document): Document;
  /** The command's error, with an injected `writeConcernError` and the imposed `errorLabels`. */
  onError(error: CommandError): CommandError;
}

/** The `writeConcernError` site (after the command ran), for commands with a write concern. */
function injectedWriteConcernError(failPoint: FailPoint, target: FailCommandTarget): Document | undefined {
  if (!supportsWriteConcern(target)) return undefined;
  return failPoint.check((d) => failCommandApplies(d, target) && Object.hasOwn(d, 'writeConcernError'));
}

/**
 * `error` with `labels` (when given) as its only error labels, an empty list included (as
 * mongod's override: the reply says `errorLabels: []`, and no label is added to it later, e.g.
 * a transaction's RetryableWriteError).
 */
function withLabels(error: CommandError, labels: unknown[] | undefined, more?: Document): CommandError {
  if (labels === undefined && more === undefined) return error;
  const extra: Document = { ...error.extra, ...more };
  if (labels !== undefined) extra.errorLabels = labels;
  return new CommandError(error.code, error.message, extra);
}

/** True when `failCommand` is configured (dispatch checks it only then). */
export function failCommandActive(server: object): boolean {
  return failPointsOf(server).failCommand.active;
}

/**
 * Checks `failCommand` before `target` runs (`evaluateFailCommandFailPoint`): when it fires it
 * blocks for `blockTimeMS`, then closes the connection or throws `errorCode` with the message
 * mongod uses; its `errorLabels` replace the labels of whatever error the command ends with.
 */
export async function evaluateFailCommand(server: object, target: FailCommandTarget): Promise<FailCommandScope> {
  const failPoint = failPointsOf(server).failCommand;
  const data = failPoint.check(
    (d) =>
      failCommandApplies(d, target) &&
      (flag(d, 'closeConnection') || flag(d, 'blockConnection') || integerField(d, 'errorCode') !== undefined),
  );
  const labels = data === undefined ? undefined : errorLabelsOf(data);
  if (data !== undefined) {
    if (flag(data, 'blockConnection')) {
      const blockTimeMS = integerField(data, 'blockTimeMS');
      if (blockTimeMS === undefined) {
        throw withLabels(new CommandError('InvalidOptions', "must specify 'blockTimeMS' when 'blockConnection' is true"), labels);
      }
      if (blockTimeMS < 0) throw withLabels(new CommandError('InvalidOptions', "'blockTimeMS' must be non-negative"), labels);
      await sleep(blockTimeMS);
    }
    if (flag(data, 'closeConnection')) return CLOSING;
    let extraInfo: Document | undefined;
    if (Object.hasOwn(data, 'errorExtraInfo')) {
      const t = bsonTypeOf(data.errorExtraInfo);
      if (t !== 'object') {
        throw withLabels(new CommandError('TypeMismatch', `"errorExtraInfo" had the wrong type. Expected object, found ${t}`), labels);
      }
      extraInfo = data.errorExtraInfo as Document;
    }
    const code = integerField(data, 'errorCode');
    if (code !== undefined && code !== 0) {
      throw withLabels(new CommandError(code, FAILPOINT_MESSAGE, extraInfo && extraInfoFields(code, extraInfo)), labels);
    }
  }
  return {
    closeConnection: false,
    onReply(reply) {
      const wce = injectedWriteConcernError(failPoint, target);
      if (wce === undefined) return reply;
      const out: Document = { ...reply, writeConcernError: wce.writeConcernError };
      const wceLabels = labels ?? errorLabelsOf(wce);
      if (wceLabels !== undefined && wceLabels.length > 0) out.errorLabels = wceLabels;
      return out;
    },
    onError(error) {
      const wce = injectedWriteConcernError(failPoint, target);
      if (wce === undefined) return withLabels(error, labels);
      return withLabels(error, labels ?? errorLabelsOf(wce), { writeConcernError: wce.writeConcernError });
    },
  };
}

/** The scope of a command whose connection is closed: it never runs. */
const CLOSING: FailCommandScope = {
  closeConnection: true,
  onReply: (reply) => reply,
  onError: (error) => error,
};
