/**
 * `setFeatureCompatibilityVersion` (set_feature_compatibility_version_command.cpp): moves the
 * feature compatibility version between mongod 8.2's latest ("8.2") and its last LTS ("8.0").
 * Since 7.0 every change needs `confirm: true` (7369100); an unknown version is 4926900. Mayfly
 * has no on-disk format to upgrade, so the change is the new value `getParameter` reports.
 */
import { CommandError } from '../../errors/command_error.js';
import { IdlRules, boolArg } from '../args.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';

/** The versions an 8.2 server may run at: last LTS and latest. */
const VERSIONS = ['8.0', '8.2'] as const;

/** The `setFeatureCompatibilityVersion` command. */
export const setFeatureCompatibilityVersion: CommandDefinition = {
  name: 'setFeatureCompatibilityVersion',
  adminOnly: true,
  target: {
    type: 'string',
    required: true,
    parse(value, field, idl) {
      if (value === null) throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${field}' is missing but a required field`);
      if (typeof value !== 'string') throw typeMismatch(`${idl}.${field}`, value, ['string']);
    },
  },
  args: { confirm: IdlRules.safeBool },
  concerns: { writeConcern: true },
  help: 'Set the featureCompatibilityVersion used by this cluster.',
  run(ctx, cmd) {
    const version = cmd.setFeatureCompatibilityVersion as string;
    if (!(VERSIONS as readonly string[]).includes(version)) {
      throw new CommandError(
        4926900,
        `Invalid feature compatibility version value '${version}'; expected '${VERSIONS[0]}' or '${VERSIONS[1]}'. See https://docs.mongodb.com/master/release-notes/8.2-compatibility/#feature-compatibility.`,
      );
    }
    if (!boolArg(cmd, 'confirm', false)) {
      throw new CommandError(
        7369100,
        "Once you have upgraded to 8.2, you will not be able to downgrade FCV and binary version without support assistance. Please re-run this command with 'confirm: true' to acknowledge this and continue with the FCV upgrade.",
      );
    }
    ctx.server.parameters.lookup('featureCompatibilityVersion')!.set!(version);
    return {};
  },
};
