/**
 * `killAllSessionsByPattern`: kills the sessions matching any of the patterns (`[]`: every
 * session): `{lsid}` one session, `{uid}` or `{users}` a user's (all sessions belong to the
 * unauthenticated user here), `{}` every one. Their open cursors are closed.
 */
import { sessionCatalogOf, NO_AUTH_USER_DIGEST } from '../../sessions/session_catalog.js';
import type { Binary } from '../../bson/library.js';
import type { CommandDefinition } from '../types.js';
import { killSessionCursors } from './kill_cursors_of.js';
import { checkDefaultReadConcernOnly, matchesNoAuthUser, parsePattern, type KillPattern } from './session_args.js';
import { CommandError } from '../../errors/command_error.js';
import { typeMismatch } from '../args.js';

function parsePatterns(value: unknown, path: string): KillPattern[] {
  if (value === null || value === undefined) throw new CommandError('IDLFailedToParse', `BSON field '${path}' is missing but a required field`);
  if (!Array.isArray(value)) throw typeMismatch(path, value, ['array']);
  return value.map((el, i) => parsePattern(el, `${path}.${i}`));
}

function sameDigest(a: Binary, b: Binary): boolean {
  return a.position === b.position && a.toString('hex') === b.toString('hex');
}

/** The `killAllSessionsByPattern` command. */
export const killAllSessionsByPattern: CommandDefinition = {
  name: 'killAllSessionsByPattern',
  idlName: 'KillAllSessionsByPatternCmd',
  target: { type: 'any', parse: (value, field, idl) => void parsePatterns(value, `${idl}.${field}`) },
  args: 'lenient',
  concerns: { writeConcern: false },
  help: 'kill logical sessions by pattern',
  run(ctx, cmd) {
    checkDefaultReadConcernOnly(ctx, cmd, 'killAllSessionsByPattern');
    const patterns = parsePatterns(cmd.killAllSessionsByPattern, 'KillAllSessionsByPatternCmd.killAllSessionsByPattern');
    const catalog = sessionCatalogOf(ctx.server);
    if (patterns.length === 0) {
      killSessionCursors(ctx, catalog.kill(undefined));
      return {};
    }
    for (const p of patterns) {
      if (p.uid !== undefined && !sameDigest(p.uid, NO_AUTH_USER_DIGEST)) continue;
      if (p.users !== undefined && p.users.length > 0 && !matchesNoAuthUser(p.users)) continue;
      killSessionCursors(ctx, catalog.kill(p.lsid === undefined ? undefined : [p.lsid]));
    }
    return {};
  },
};
