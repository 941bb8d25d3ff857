/**
 * The commands of the catalogue that the registry lacks: each answers 238 NotImplemented (never a
 * silent ok), so a client learns at once what is missing. The list is derived, never kept by hand:
 * implementing a command means adding its file to the registry, and it drops out of here.
 */
import { CommandError } from '../errors/command_error.js';
import { MAYFLY_COMMANDS, MONGOD_COMMANDS } from './catalogue.js';
import type { CommandDefinition } from './types.js';

/** Every name and alias `implemented` answers to. */
function namesOf(implemented: readonly CommandDefinition[]): Set<string> {
  return new Set(implemented.flatMap((d) => [d.name, ...(d.aliases ?? [])]));
}

/** Catalogue names no implemented definition answers to, sorted. */
export function unimplementedCommandNames(implemented: readonly CommandDefinition[]): string[] {
  const have = namesOf(implemented);
  return [...MONGOD_COMMANDS, ...MAYFLY_COMMANDS].filter((name) => !have.has(name)).sort();
}

/** Implemented definitions whose canonical name is in neither catalogue list (a bookkeeping error). */
export function uncataloguedCommands(implemented: readonly CommandDefinition[]): string[] {
  const known = new Set([...MONGOD_COMMANDS, ...MAYFLY_COMMANDS]);
  return implemented.map((d) => d.name).filter((name) => !known.has(name));
}

/** Definitions answering 238 for the catalogue's commands not in `implemented`. */
export function notImplementedCommands(implemented: readonly CommandDefinition[]): CommandDefinition[] {
  return unimplementedCommandNames(implemented).map((name) => ({
    name,
    args: 'lenient',
    help: `${name} (not implemented by Mayfly yet)`,
    run() {
      throw new CommandError('NotImplemented', `The '${name}' command is not implemented by Mayfly yet`);
    },
  }));
}
