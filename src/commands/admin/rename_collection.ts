/** `renameCollection`: moves a collection to another name (or database), `dropTarget` optional. */
import { CommandError } from '../../errors/command_error.js';
import { validateCollectionName, validateDbName } from '../../storage/values/namespace.js';
import type { CommandDefinition } from '../types.js';

function splitNamespace(ns: string): [string, string] {
  const dot = ns.indexOf('.');
  if (dot <= 0 || dot === ns.length - 1) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ns}'`);
  return [ns.slice(0, dot), ns.slice(dot + 1)];
}

/** The `renameCollection` command. */
export const renameCollection: CommandDefinition = {
  name: 'renameCollection',
  adminOnly: true,
  target: { type: 'string' },
  args: { to: { type: 'string', required: true }, dropTarget: { type: ['bool', 'any'] }, stayTemp: { type: 'bool' } },
  help: ' example: { renameCollection: foo.a, to: bar.b }',
  run(ctx, cmd) {
    const [fromDb, fromName] = splitNamespace(cmd.renameCollection as string);
    const [toDb, toName] = splitNamespace(cmd.to as string);
    validateDbName(toDb);
    validateCollectionName(toDb, toName, true);
    const catalog = ctx.server.catalog;
    const source = catalog.get(fromDb, fromName);
    if (!source) {
      if (catalog.view(fromDb, fromName)) throw new CommandError('CommandNotSupportedOnView', `cannot rename view: ${fromDb}.${fromName}`);
      throw new CommandError('NamespaceNotFound', `Source collection ${fromDb}.${fromName} does not exist`);
    }
    if (fromDb === toDb && fromName === toName) {
      throw new CommandError('IllegalOperation', "Can't rename a collection to itself");
    }
    const target = catalog.get(toDb, toName);
    if (!target && catalog.view(toDb, toName)) throw new CommandError('NamespaceExists', `a view already exists with that name: ${toDb}.${toName}`);
    if (target) {
      if (cmd.dropTarget !== true) throw new CommandError('NamespaceExists', 'target namespace exists');
      ctx.server.cursors.killNamespace(target.ns);
      catalog.drop(toDb, toName);
    }
    ctx.server.cursors.killNamespace(source.ns);
    catalog.rename(source, toDb, toName);
    return {};
  },
};
