/** The shape of a SASL conversation under way on a connection (mechanisms.ts makes them). */
import type { UserName } from './credentials.js';

/** One step's outcome: the payload to send back and whether the conversation succeeded. */
export interface StepResult {
  readonly payload: Buffer;
  readonly done: boolean;
}

/** A SASL conversation under way on a connection. */
export interface SaslConversation {
  readonly mechanism: string;
  readonly db: string;
  /** Runs the next step; throws `ScramFailure` (or any error) when authentication fails. */
  step(payload: Buffer): StepResult;
  /** The user the conversation authenticates, once known. */
  readonly principal: UserName | null;
}

