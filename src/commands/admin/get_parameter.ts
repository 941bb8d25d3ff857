/**
 * `getParameter` (get_set_parameter_command.cpp): server parameters by name, `'*'` or
 * `{allParameters: true}` for all (narrowed by `setAt: "startup" | "runtime"`), with
 * `{showDetails: true}` their settability. The command's value selects the form: `'*'`, a
 * `GetParameterOptions` document (strict: 40415; `showDetails`/`allParameters` safeBool, `setAt` a
 * string: 14), anything else names parameters in the other fields; none found is 72.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { GENERIC_ARGUMENTS } from '../args.js';
import { typeMismatch } from '../idl_errors.js';
import type { CommandDefinition } from '../types.js';

const OPTIONS = 'GetParameterOptions';

/** A safeBool option of the document form (null reads as absent). */
function safeBoolOption(opts: Document, field: string): boolean {
  const v = opts[field];
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (isNumber(v)) return toDouble(v) !== 0;
  throw typeMismatch(`${OPTIONS}.${field}`, v, ['bool', 'long', 'int', 'decimal', 'double']);
}

/** The `getParameter` command. */
export const getParameter: CommandDefinition = {
  name: 'getParameter',
  adminOnly: true,
  args: 'lenient',
  help: 'get administrative option(s)\nexample:\n{ getParameter:1, notablescan:1 }',
  run(ctx, cmd) {
    const target = cmd.getParameter;
    let all = target === '*';
    let showDetails = false;
    let setAt: 'startup' | 'runtime' | undefined;
    if (isDocument(target)) {
      // As the IDL parser: field by field, in order.
      for (const key of Object.keys(target)) {
        if (key === 'showDetails') showDetails = safeBoolOption(target, key);
        else if (key === 'allParameters') all = safeBoolOption(target, key);
        else if (key === 'setAt') {
          const at = target.setAt;
          if (at === null) continue;
          if (typeof at !== 'string') throw typeMismatch(`${OPTIONS}.setAt`, at, ['string']);
          if (at !== 'startup' && at !== 'runtime') throw new CommandError('BadValue', `Invalid value for setAt: '${at}'; expected 'startup' or 'runtime'`);
          setAt = at;
        } else throw new CommandError('IDLUnknownField', `BSON field '${OPTIONS}.${key}' is an unknown field.`);
      }
    }
    const table = ctx.server.parameters;
    let reply: Document;
    if (all) {
      const names = table
        .all()
        .filter((p) => setAt === undefined || (setAt === 'startup' ? p.settableAtStartup : p.settableAtRuntime))
        .map((p) => p.name);
      reply = table.describe(names, showDetails);
    } else {
      const names = Object.keys(cmd).filter((k) => k !== 'getParameter' && !GENERIC_ARGUMENTS.has(k));
      reply = table.describe(names, showDetails);
    }
    if (Object.keys(reply).length === 0) throw new CommandError('InvalidOptions', 'no option found to get');
    return reply;
  },
};
