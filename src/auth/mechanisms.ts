/**
 * The SASL authentication mechanisms (`saslStart`/`saslContinue` and speculative
 * authentication in `hello`); the one-step `authenticate` command (MONGODB-X509) is
 * commands/auth/authenticate.ts with x509.ts.
 * mongod's rules (mongo/src/mongo/db/auth/sasl_commands.cpp, authentication_commands.cpp):
 *   - an unknown SASL mechanism is 2 BadValue "Unsupported mechanism 'X' on authentication
 *     database 'db'";
 *   - any failure inside a step is 18 "Authentication failed.", whatever the reason;
 *   - a `conversationId` other than the conversation's is 17 ProtocolError, and so is a
 *     `saslContinue` with no conversation under way (a finished one cannot be replayed);
 *   - `authenticate` answers 18 for everything but UserNotFound and ProtocolError.
 */
import { Binary, type Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';
import type { AuthorizationSession } from './authorization_session.js';
import { scramCredentialOf } from './credentials.js';
import { isScramMechanism, parseClientFirst, ScramFailure, ScramServerConversation, type ScramMechanismName } from './scram.js';
import type { UserName } from './credentials.js';
import type { SaslConversation, StepResult } from './sasl_conversation.js';

/** mongod's one answer to a failed authentication. */
export function authenticationFailed(): CommandError {
  return new CommandError('AuthenticationFailed', 'Authentication failed.');
}

/** Longest user name a SCRAM conversation accepts (longer ones simply fail). */
const MAX_USER_NAME_BYTES = 10 * 1024;

/** A SCRAM conversation as a SASL conversation: server-first, server-final, then (optionally) empty. */
function scramConversation(session: AuthorizationSession, mech: ScramMechanismName, db: string, skipEmptyExchange: boolean): SaslConversation {
  let scram: ScramServerConversation | null = null;
  let principal: UserName | null = null;
  let stepNo = 0;
  return {
    mechanism: mech,
    db,
    get principal() {
      return principal;
    },
    step(payload: Buffer): StepResult {
      const text = payload.toString('utf8');
      switch (stepNo++) {
        case 0: {
          const first = parseClientFirst(text);
          if (Buffer.byteLength(first.user) > MAX_USER_NAME_BYTES) throw new ScramFailure('SCRAM user name too long');
          principal = { user: first.user, db };
          const manager = session.manager;
          const doc = manager.findUser(principal);
          const credential = doc ? scramCredentialOf(doc, mech) : undefined;
          // A user without a credential for this mechanism fails at once, as mongod does; an
          // unknown user gets a made-up credential and fails at the proof, like a wrong password.
          if (doc && !credential) throw new ScramFailure(`Unable to use ${mech} based authentication for user without any ${mech} credentials registered`);
          const real = credential !== undefined;
          scram = new ScramServerConversation(mech, first, credential ?? manager.decoys.for(principal, mech, manager.iterations[mech]), real);
          return { payload: Buffer.from(scram.serverFirstMessage, 'utf8'), done: false };
        }
        case 1: {
          const serverFinal = scram!.finish(text);
          return { payload: Buffer.from(serverFinal, 'utf8'), done: skipEmptyExchange };
        }
        case 2:
          if (payload.length !== 0) throw new ScramFailure('SCRAM client final message must be empty');
          return { payload: Buffer.alloc(0), done: true };
        default:
          throw new ScramFailure('Unexpected SCRAM step');
      }
    },
  };
}

/** The SASL mechanisms, by name: a conversation factory for a database, or undefined there. */
const SASL_MECHANISMS: Readonly<Record<string, (session: AuthorizationSession, db: string, options: Document) => SaslConversation | undefined>> = {
  'SCRAM-SHA-1': (session, db, options) => (db === '$external' ? undefined : scramConversation(session, 'SCRAM-SHA-1', db, options.skipEmptyExchange === true)),
  'SCRAM-SHA-256': (session, db, options) => (db === '$external' ? undefined : scramConversation(session, 'SCRAM-SHA-256', db, options.skipEmptyExchange === true)),
};

/** The mechanisms a user stored in `db` may be offered (hello's `saslSupportedMechs`). */
export function saslMechanismsFor(db: string, credentials: readonly string[]): string[] {
  return db === '$external' ? [] : credentials.filter((m) => isScramMechanism(m));
}

/** The payload of a SASL command: BinData, or a base64 string (answered in kind). */
function readPayload(value: unknown, command: string): { bytes: Buffer; asBase64: boolean } {
  if (value instanceof Binary) return { bytes: Buffer.from(value.buffer.subarray(0, value.position)), asBase64: false };
  if (typeof value === 'string') return { bytes: Buffer.from(value, 'base64'), asBase64: true };
  if (value === undefined) throw new CommandError('IDLFailedToParse', `BSON field '${command}.payload' is missing but a required field`);
  throw new CommandError('TypeMismatch', `BSON field '${command}.payload' is the wrong type '${bsonTypeOf(value)}', expected types '[string, binData']`);
}

function reply(result: StepResult, asBase64: boolean): Document {
  return { conversationId: 1, done: result.done, payload: asBase64 ? result.payload.toString('base64') : new Binary(result.payload) };
}

/** Runs one step of `conv`; a failure ends the conversation with 18, a success logs the user in. */
function runStep(session: AuthorizationSession, conv: SaslConversation, payload: Buffer): StepResult {
  let result: StepResult;
  try {
    result = conv.step(payload);
  } catch {
    session.conversation = null;
    throw authenticationFailed();
  }
  if (result.done) {
    session.conversation = null;
    try {
      session.login(conv.principal!);
    } catch {
      throw authenticationFailed();
    }
  } else {
    session.conversation = conv;
  }
  return result;
}

/** `saslStart` on `db`: starts a conversation (a new one replaces any under way). */
export function saslStart(session: AuthorizationSession, db: string, cmd: Document): Document {
  const mechanism = cmd.mechanism;
  if (typeof mechanism !== 'string') throw new CommandError('IDLFailedToParse', "BSON field 'saslStart.mechanism' is missing but a required field");
  const { bytes, asBase64 } = readPayload(cmd.payload, 'saslStart');
  const options = typeof cmd.options === 'object' && cmd.options !== null ? (cmd.options as Document) : {};
  session.conversation = null;
  const factory = Object.hasOwn(SASL_MECHANISMS, mechanism) ? SASL_MECHANISMS[mechanism] : undefined;
  const conv = factory?.(session, db, options);
  if (!conv) throw new CommandError('BadValue', `Unsupported mechanism '${mechanism}' on authentication database '${db}'`);
  return reply(runStep(session, conv, bytes), asBase64);
}

/** `saslContinue`: the next step of the conversation under way. */
export function saslContinue(session: AuthorizationSession, cmd: Document): Document {
  const { bytes, asBase64 } = readPayload(cmd.payload, 'saslContinue');
  const conv = session.conversation;
  if (cmd.conversationId !== 1 && Number(cmd.conversationId) !== 1) throw new CommandError('ProtocolError', 'sasl: Mismatched conversation id');
  if (!conv) throw new CommandError('ProtocolError', 'No SASL session state found');
  return reply(runStep(session, conv, bytes), asBase64);
}

/**
 * hello's `speculativeAuthenticate` holding a saslStart (`{ saslStart: 1, mechanism, payload,
 * db }`): the first step's reply, or undefined when it failed or is something else (then the
 * client authenticates the usual way).
 */
export function speculativeSaslStart(session: AuthorizationSession, doc: Document): Document | undefined {
  if (doc.saslStart === undefined || typeof doc.db !== 'string') return undefined;
  try {
    return saslStart(session, doc.db, doc);
  } catch {
    return undefined;
  }
}
