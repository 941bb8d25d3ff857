/**
 * The awaitable hello (the SDAM spec's streaming protocol; mongod's `hello` with
 * `topologyVersion` + `maxAwaitTimeMS`): a monitor sends back the `topologyVersion` it last saw,
 * and the server answers when its topology changes or after `maxAwaitTimeMS`, so that a driver's
 * monitor costs one request per heartbeat instead of a busy loop. mongod's checks and messages
 * (src/mongo/db/repl/replication_info.cpp, hello.idl).
 */
import { Long, ObjectId, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../../storage/values/paths.js';
import { checkSafeInt64, typeMismatch } from '../args.js';
import type { CommandContext } from '../types.js';

/** What a hello asks to wait for: the client's topology version and the time it waits at most. */
interface AwaitRequest {
  readonly processId: ObjectId;
  readonly counter: bigint;
  readonly maxAwaitTimeMS: number;
}

/**
 * Runs `answer` at once, or, for an awaitable hello whose `topologyVersion` is the server's
 * current one, when the topology changes, `maxAwaitTimeMS` passes or the connection closes.
 */
export function answerWhenChanged(ctx: CommandContext, cmd: Document, answer: () => Document): Document | Promise<Document> {
  const request = awaitRequest(cmd);
  if (request === null) return answer();
  const topology = ctx.server.topology;
  if (!request.processId.equals(topology.processId) || request.counter < topology.counter) return answer();
  if (request.counter > topology.counter) {
    throw new CommandError(31382, `Received a topology version with counter: ${request.counter} which is greater than the server topology version counter: ${topology.counter}`);
  }
  const wait = topology.wait(request.maxAwaitTimeMS);
  const unregister = ctx.connection.onClosed(wait.cancel);
  return wait.done.then(() => {
    unregister();
    return answer();
  });
}

/** The awaitable part of a hello, checked as mongod does; null for a plain hello. */
function awaitRequest(cmd: Document): AwaitRequest | null {
  const version = cmd.topologyVersion;
  const maxAwait = cmd.maxAwaitTimeMS;
  let maxAwaitTimeMS: bigint | undefined;
  if (maxAwait !== undefined && maxAwait !== null) maxAwaitTimeMS = checkSafeInt64('hello.maxAwaitTimeMS', 'maxAwaitTimeMS', maxAwait, { gte: 0 });
  const parsed = version === undefined || version === null ? undefined : topologyVersionArg(version);
  if (parsed === undefined || maxAwaitTimeMS === undefined) {
    if (parsed === undefined && maxAwaitTimeMS === undefined) return null;
    throw new CommandError(31368, parsed !== undefined ? "A request with a 'topologyVersion' must include 'maxAwaitTimeMS'" : "A request with 'maxAwaitTimeMS' must include a 'topologyVersion'");
  }
  if (parsed.counter < 0n) throw new CommandError(31372, 'topologyVersion must have a non-negative counter');
  return { ...parsed, maxAwaitTimeMS: Number(maxAwaitTimeMS) };
}

/** The `TopologyVersion` struct of hello.idl: `{ processId: objectId, counter: long }`, strict. */
function topologyVersionArg(value: unknown): { processId: ObjectId; counter: bigint } {
  if (!isDocument(value)) throw typeMismatch('hello.topologyVersion', value, ['object']);
  for (const key of Object.keys(value)) {
    if (key !== 'processId' && key !== 'counter') throw new CommandError('IDLUnknownField', `BSON field 'TopologyVersion.${key}' is an unknown field.`);
  }
  const { processId, counter } = value;
  if (processId === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'TopologyVersion.processId' is missing but a required field");
  if (!(processId instanceof ObjectId)) throw typeMismatch('TopologyVersion.processId', processId, ['objectId']);
  if (counter === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'TopologyVersion.counter' is missing but a required field");
  if (!(counter instanceof Long) && typeof counter !== 'bigint' && !Number.isInteger(counter)) throw typeMismatch('TopologyVersion.counter', counter, ['long']);
  const n = counter instanceof Long ? counter.toBigInt() : BigInt(counter as number | bigint);
  return { processId, counter: n };
}
