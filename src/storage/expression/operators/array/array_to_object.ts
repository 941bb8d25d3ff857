/**
 * `$arrayToObject` (ExpressionArrayToObject): `[[k, v], ...]` or `[{k, v}, ...]` as a document.
 * The first element decides the form (40398 otherwise); every element must follow it
 * (40396/40391); keys are strings without a NUL byte; a repeated key keeps its first position
 * and takes the last value. Null for null and missing; 40386 for anything else not an array.
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { docValueToString } from '../../../values/format.js';
import { assign } from '../../../values/paths.js';
import type { Evaluator, ExpressionOperator } from '../../types.js';
import { fieldOf, isNullish, typeName } from '../../value.js';
import { MISSING } from '../../../values/missing.js';

function pairEntry(elem: unknown): [string, unknown] {
  if (!Array.isArray(elem)) {
    throw new CommandError(
      40396,
      `$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: ${typeName(elem)}`,
    );
  }
  if (elem.length !== 2) {
    throw new CommandError(40397, `$arrayToObject requires an array of size 2 arrays,found array of size: ${elem.length}`);
  }
  const key = elem[0];
  if (typeof key !== 'string') {
    throw new CommandError(
      40395,
      `$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: ${typeName(key)}`,
    );
  }
  if (key.includes('\0')) throw new CommandError(4940400, 'Key field cannot contain an embedded null byte');
  return [key, elem[1]];
}

function kvEntry(elem: unknown): [string, unknown] {
  if (typeName(elem) !== 'object') {
    throw new CommandError(
      40391,
      `$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Object was detected, now found: ${typeName(elem)}`,
    );
  }
  const doc = elem as Document;
  const size = Object.keys(doc).length;
  if (size !== 2) {
    throw new CommandError(40392, `$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:${size}`);
  }
  const key = fieldOf(doc, 'k');
  const value = fieldOf(doc, 'v');
  if (key === MISSING || value === MISSING) {
    throw new CommandError(
      40393,
      `$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: ${docValueToString(doc)}`,
    );
  }
  if (typeof key !== 'string') {
    throw new CommandError(
      40394,
      `$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: ${typeName(key)}`,
    );
  }
  if (key.includes('\0')) throw new CommandError(4940401, 'Key field cannot contain an embedded null byte');
  return [key, value];
}

/** `$arrayToObject` of an evaluated argument. */
function arrayToObjectOf(input: unknown): unknown {
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) throw new CommandError(40386, `$arrayToObject requires an array input, found: ${typeName(input)}`);
  const out: Document = {};
  if (input.length === 0) return out;
  const head = input[0];
  let entry: (elem: unknown) => [string, unknown];
  if (Array.isArray(head)) entry = pairEntry;
  else if (typeName(head) === 'object') entry = kvEntry;
  else throw new CommandError(40398, `Unrecognised input type format for $arrayToObject: ${typeName(head)}`);
  for (const elem of input) {
    const [key, value] = entry(elem);
    assign(out, key, value);
  }
  return out;
}

/** `{$arrayToObject: <array>}`. */
export const arrayToObject: ExpressionOperator = {
  name: '$arrayToObject',
  parse(arg, scope) {
    const [a] = scope.parseFixedArguments('$arrayToObject', arg, 1) as [Evaluator];
    return (frame) => arrayToObjectOf(a(frame));
  },
};
