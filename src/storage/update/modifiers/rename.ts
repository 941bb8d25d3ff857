/**
 * `$rename` (rename_node.cpp): moves a field's value to another path. Its two paths are parsed
 * and checked here; the update tree moves the value (`operator_update.ts`), since no other
 * operator touches two paths.
 */
import { CommandError } from '../../../errors/command_error.js';
import { formatElement } from '../../values/format.js';
import { isArrayFilterIdentifier, parseUpdatePath } from '../update_paths.js';
import type { RenameDefinition, RenamePaths } from './types.js';

function checkNotDynamic(path: readonly string[], which: 'source' | 'destination', text: string): void {
  if (path.some((p) => p === '$' || isArrayFilterIdentifier(p))) {
    throw new CommandError('BadValue', `The ${which} field for $rename may not be dynamic: ${text}`);
  }
}

function parseRename(from: string, to: unknown, claimSource: (from: readonly string[]) => void): RenamePaths {
  const fromParts = parseUpdatePath(from);
  claimSource(fromParts);
  checkNotDynamic(fromParts, 'source', from);
  if (typeof to !== 'string') {
    throw new CommandError('BadValue', `The 'to' field for $rename must be a string: ${formatElement(from, to)}`);
  }
  checkNotDynamic(to.split('.'), 'destination', to);
  const toParts = parseUpdatePath(to);
  if (to.includes('\0')) {
    throw new CommandError('BadValue', "The 'to' field for $rename cannot contain an embedded null byte");
  }
  if (from === to) {
    throw new CommandError('BadValue', `The source and target field for $rename must differ: ${formatElement(from, to)}`);
  }
  if (to.startsWith(`${from}.`) || from.startsWith(`${to}.`)) {
    throw new CommandError(
      'BadValue',
      `The source and target field for $rename must not be on the same path: ${formatElement(from, to)}`,
    );
  }
  return { from: fromParts, to: toParts };
}

/** `$rename`. */
export const rename: RenameDefinition = { name: '$rename', kind: 'rename', parse: parseRename };
