/**
 * `startSession`: a new logical session, registered in the session catalog (so
 * `$listLocalSessions` lists it) and returned as `{id: {id: UUID}, timeoutMinutes}`. Like mongod
 * it supports no read or write concern.
 */
import { Binary, UUID } from '../../bson/library.js';
import { LOGICAL_SESSION_TIMEOUT_MINUTES, sessionCatalogOf } from '../../sessions/session_catalog.js';
import type { CommandDefinition } from '../types.js';
import { checkDefaultReadConcernOnly } from './session_args.js';

/** The `startSession` command. */
export const startSession: CommandDefinition = {
  name: 'startSession',
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'start a logical session',
  run(ctx, cmd) {
    checkDefaultReadConcernOnly(ctx, cmd, 'startSession');
    const id = new Binary(new UUID().buffer, Binary.SUBTYPE_UUID);
    sessionCatalogOf(ctx.server).touch({ id }, ctx.now());
    return { id: { id }, timeoutMinutes: LOGICAL_SESSION_TIMEOUT_MINUTES };
  },
};
