/**
 * `compactStructuredEncryptionData` (fle2_compact_cmd.cpp): compacts the metadata collections of
 * a Queryable Encryption collection. Mayfly creates no encrypted collections (`create` refuses
 * `encryptedFields` with 238), so any collection it names is not one: 6346807, after mongod's
 * argument and namespace checks (73 for a bad name, 26 for none, 166 for a view).
 */
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../../storage/values/paths.js';
import { viewNotCollectionError } from '../../storage/values/namespace.js';
import { collectionArg } from '../args.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';

/** The `compactStructuredEncryptionData` command. */
export const compactStructuredEncryptionData: CommandDefinition = {
  name: 'compactStructuredEncryptionData',
  args: {
    compactionTokens: {
      type: 'object',
      required: true,
      parse(value, field, idl) {
        if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
        if (!isDocument(value)) throw typeMismatch(`${idl}.${field}`, value, ['object']);
      },
    },
    encryptionInformation: { type: 'object' },
  },
  help: 'Compacts a queryable encryption collection',
  run(ctx, cmd) {
    const name = collectionArg(cmd, 'compactStructuredEncryptionData', ctx.db);
    const coll = ctx.server.catalog.get(ctx.db, name);
    if (coll === undefined) {
      if (ctx.server.catalog.view(ctx.db, name)) throw viewNotCollectionError(ctx.db, name);
      throw new CommandError('NamespaceNotFound', `Collection '${ctx.db}.${name}' does not exist`);
    }
    throw new CommandError(6346807, 'Target namespace is not an encrypted collection');
  },
};
