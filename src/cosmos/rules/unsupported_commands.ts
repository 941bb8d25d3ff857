/**
 * Rule `unsupportedCommands`: a command the server version's feature-support page does not list
 * answers 115 CommandNotSupported, the code of the error-codes page ("The attempted request is not
 * supported"). Mayfly's own test commands (`mayfly*`, `configureFailPoint`) stay available, so a
 * test suite can drive the clock and fail points in either mode.
 */
import { CommandError } from '../../errors/command_error.js';
import type { CosmosVersionFacts } from '../versions.js';

/** True for Mayfly's test commands, available in every mode. */
function isTestCommand(name: string): boolean {
  return name.startsWith('mayfly') || name === 'configureFailPoint';
}

/** Throws 115 unless `version` supports the command `name` (its canonical name). */
export function cosmosCheckCommand(name: string, version: CosmosVersionFacts): void {
  if (version.commands.has(name) || isTestCommand(name)) return;
  throw new CommandError('CommandNotSupported', `Command ${name} not supported.`);
}
