/**
 * `$switch` (ExpressionSwitch): the `then` of the first branch whose `case` is truthy, else
 * `default`. Parse-time checks: an object argument (40060), `branches` an array (40061) of
 * objects (40062) with only `case` and `then` (40063), both required (40064, 40065), no other
 * field (40067), at least one branch (40068). As mongod's optimizer does, branches whose `case`
 * is a falsy constant are dropped and a truthy constant ends the list; none left and no default
 * is 40069; the constant `then`s of the branches kept and the default are evaluated then (their
 * errors surface when parsed). At run time no match and no default is 40066.
 */
import { CommandError } from '../../../../errors/command_error.js';
import { constantOperand, isConstant } from '../../../values/constant_operand.js';
import { isDocument } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { toBool, typeName } from '../../value.js';
import { foldCheck } from './_internal.js';

/** `{$switch: {branches: [{case, then}, ...], default}}`. */
export const switch_: ExpressionOperator = {
  name: '$switch',
  parse(arg, scope) {
    if (!isDocument(arg)) throw new CommandError(40060, `$switch requires an object as an argument, found: ${typeName(arg)}`);
    const cases: Evaluator[] = [];
    const thens: Evaluator[] = [];
    const constantCases: unknown[] = [];
    let defaultE: Evaluator | undefined;
    let defaultRaw: unknown;
    const thenRaws: unknown[] = [];
    const caseRaws: unknown[] = [];
    for (const key of Object.keys(arg)) {
      const value = arg[key];
      if (key === 'branches') {
        if (!Array.isArray(value)) throw new CommandError(40061, `$switch expected an array for 'branches', found: ${typeName(value)}`);
        for (const branch of value) {
          if (!isDocument(branch)) throw new CommandError(40062, `$switch expected each branch to be an object, found: ${typeName(branch)}`);
          let caseE: Evaluator | undefined;
          let thenE: Evaluator | undefined;
          let caseRaw: unknown;
          let thenRaw: unknown;
          for (const field of Object.keys(branch)) {
            if (field === 'case') {
              caseRaw = branch[field];
              caseE = scope.parse(caseRaw);
            } else if (field === 'then') {
              thenRaw = branch[field];
              thenE = scope.parse(thenRaw);
            }
            else throw new CommandError(40063, `$switch found an unknown argument to a branch: ${field}`);
          }
          if (caseE === undefined) throw new CommandError(40064, "$switch requires each branch have a 'case' expression");
          if (thenE === undefined) throw new CommandError(40065, "$switch requires each branch have a 'then' expression.");
          cases.push(caseE);
          thens.push(thenE);
          thenRaws.push(thenRaw);
          constantCases.push(constantOperand(caseRaw));
          caseRaws.push(caseRaw);
        }
      } else if (key === 'default') {
        defaultE = scope.parse(value);
        defaultRaw = value;
      } else {
        throw new CommandError(40067, `$switch found an unknown argument: ${key}`);
      }
    }
    if (cases.length === 0) throw new CommandError(40068, '$switch requires at least one branch.');
    // ExpressionSwitch::optimize: constant cases decided now.
    const keptCases: Evaluator[] = [];
    const keptThens: Evaluator[] = [];
    let always: Evaluator | undefined;
    for (let i = 0; i < cases.length; i++) {
      const c = constantCases[i];
      if (isConstant(c)) {
        if (!toBool(c)) continue;
        always = thens[i];
        foldCheck(thenRaws[i], thens[i]!);
        break;
      }
      keptCases.push(cases[i]!);
      keptThens.push(thens[i]!);
      foldCheck(caseRaws[i], cases[i]!);
      foldCheck(thenRaws[i], thens[i]!);
    }
    // The optimizer folds what it keeps: the remaining branches and the default.
    if (defaultE !== undefined) foldCheck(defaultRaw, defaultE);
    if (keptCases.length === 0 && always === undefined && defaultE === undefined) {
      throw new CommandError(40069, 'Cannot execute a switch statement where all the cases evaluate to false without a default');
    }
    const fallback: Evaluator =
      always ??
      defaultE ??
      (() => {
        throw new CommandError(40066, '$switch could not find a matching branch for an input, and no default was specified.');
      });
    const n = keptCases.length;
    return (frame) => {
      for (let i = 0; i < n; i++) if (toBool(keptCases[i]!(frame))) return keptThens[i]!(frame);
      return fallback(frame);
    };
  },
};
