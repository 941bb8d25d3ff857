/**
 * `convertToCapped`: makes a collection capped at `size` bytes, as mongod 8.2 does
 * (collection_to_capped.cpp, capped_utils.cpp's `convertToCapped`): the collection is cloned
 * into a temporary capped collection (`tmpXXXXX.convertToCapped.<name>`, so the name must leave
 * room for that prefix: 73), which then replaces it. Its documents are kept in natural order
 * (the oldest evicted when they do not fit), its indexes but `_id` are not.
 */
import { CommandError } from '../../errors/command_error.js';
import { validateCollectionName } from '../../storage/values/namespace.js';
import { collectionArg } from '../args.js';
import type { CommandDefinition } from '../types.js';
import { cappedCloneSize, cloneAsCapped, cloneSource } from './_internal/capped_clone.js';

const TEMP_NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The `convertToCapped` command. */
export const convertToCapped: CommandDefinition = {
  name: 'convertToCapped',
  args: 'lenient',
  concerns: { readConcern: 'localOnly', writeConcern: true },
  help: '{ convertToCapped:<fromCollectionName>, size:<sizeInBytes> }',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'convertToCapped', ctx.db);
    if (name.includes('\0')) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.${name}'`);
    if (name.startsWith('.')) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${ctx.db}.${name}'`);
    const size = cappedCloneSize(cmd.size);
    const catalog = ctx.server.catalog;
    if (catalog.collections(ctx.db).length === 0) throw new CommandError('NamespaceNotFound', `database ${ctx.db} not found`);
    let tempName: string;
    do {
      let random = '';
      for (let i = 0; i < 5; i++) random += TEMP_NAME_CHARS[Math.floor(Math.random() * TEMP_NAME_CHARS.length)];
      tempName = `tmp${random}.convertToCapped.${name}`;
    } while (catalog.get(ctx.db, tempName) || catalog.view(ctx.db, tempName));
    validateCollectionName(ctx.db, tempName);
    const source = cloneSource(ctx, 'cloneCollectionAsCapped', name);
    const temp = cloneAsCapped(ctx, source, tempName, size, false);
    ctx.server.cursors.killNamespace(source.ns);
    catalog.rename(temp, ctx.db, name, { dropTarget: true });
    return {};
  },
};
