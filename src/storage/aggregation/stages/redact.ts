/**
 * `$redact` (mongo/src/mongo/db/pipeline/document_source_redact.cpp): the expression is
 * evaluated with `$$CURRENT` at each level of the document, from the top: `$$KEEP` keeps the
 * level as it is, `$$PRUNE` removes it (the whole document at the top, the field or array element
 * below), `$$DESCEND` keeps its fields and evaluates again at each subdocument, through arrays
 * (arrays within arrays too; scalars in arrays are kept). `$$ROOT` stays the whole input
 * document. The three variables hold the strings "keep", "prune" and "descend", and a result is
 * compared with those values, as mongod does; anything else is 17053.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Frame } from '../../expression/types.js';
import { docValueToString } from '../../values/format.js';
import { MISSING } from '../../values/missing.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';

const KEEP = 'keep';
const PRUNE = 'prune';
const DESCEND = 'descend';

/** `{$redact: <expression>}`. */
export const redact: StageDefinition = {
  name: '$redact',
  constraints: TRANSFORM,
  parse(spec, ctx) {
    const expressions = ctx.expressions;
    const scope = expressions.scope.child();
    const slots: Array<[number, string]> = [
      [scope.bind('KEEP'), KEEP],
      [scope.bind('PRUNE'), PRUNE],
      [scope.bind('DESCEND'), DESCEND],
    ];
    const expr = scope.parse(spec);
    const vars = expressions.vars;
    const runtime = expressions.runtime;

    /** The level `current` of `root` as the expression decides, or MISSING when pruned. */
    function redactObject(current: Document, root: Document): Document | typeof MISSING {
      for (const [slot, value] of slots) vars[slot] = value;
      const frame: Frame = { root, current, vars, runtime };
      const result = expr(frame);
      if (result === KEEP) return current;
      if (result === PRUNE) return MISSING;
      if (result === DESCEND) {
        const out: Document = {};
        for (const [field, value] of Object.entries(current)) {
          const v = redactValue(value, root);
          if (v !== MISSING) out[field] = v;
        }
        return out;
      }
      throw new CommandError(
        17053,
        `$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned ${docValueToString(result)}`,
      );
    }

    function redactValue(value: unknown, root: Document): unknown {
      if (isDocument(value)) return redactObject(value, root);
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        for (const element of value) {
          if (isDocument(element) || Array.isArray(element)) {
            const v = redactValue(element, root);
            if (v !== MISSING) out.push(v);
          } else out.push(element);
        }
        return out;
      }
      return value;
    }

    return {
      *run(input) {
        for (const doc of input) {
          const out = redactObject(doc, doc);
          if (out !== MISSING) yield out;
        }
      },
    };
  },
};
