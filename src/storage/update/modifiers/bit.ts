/**
 * `$bit` (bit_node.cpp, mongo/util/safe_num.cpp): `{$bit: {field: {and|or|xor: <int or long>}}}`
 * applied in the order written. Int32 with Int32 stays Int32; any Int64 makes an Int64. A
 * missing field is created from Int32 0; an identical result is a no-op.
 */
import { Long } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { formatElement } from '../../values/format.js';
import { fieldName, idText } from './_internal/id_text.js';
import { NOOP, type ModifierDefinition, type ModifierParser } from './types.js';

type BitOp = 'and' | 'or' | 'xor';

interface BitValue {
  readonly long: boolean;
  readonly bits: bigint;
}

function toBitValue(v: unknown): BitValue {
  if (typeof v === 'number') return { long: false, bits: BigInt(v) };
  return { long: true, bits: (v as Long).toBigInt() };
}

function fromBitValue(v: BitValue): unknown {
  return v.long ? Long.fromBigInt(BigInt.asIntN(64, v.bits)) : Number(BigInt.asIntN(32, v.bits));
}

function applyOp(op: BitOp, a: BitValue, b: BitValue): BitValue {
  const long = a.long || b.long;
  const bits = op === 'and' ? a.bits & b.bits : op === 'or' ? a.bits | b.bits : a.bits ^ b.bits;
  return { long, bits: long ? BigInt.asIntN(64, bits) : BigInt.asIntN(32, bits) };
}

const parseBit: ModifierParser = (field, arg) => {
  if (bsonTypeOf(arg) !== 'object') {
    throw new CommandError(
      'BadValue',
      `The $bit modifier is not compatible with a ${bsonTypeOf(arg)}. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}`,
    );
  }
  const spec = arg as Record<string, unknown>;
  const ops: Array<{ op: BitOp; operand: BitValue }> = [];
  for (const name of Object.keys(spec)) {
    const value = spec[name];
    if (name !== 'and' && name !== 'or' && name !== 'xor') {
      throw new CommandError(
        'BadValue',
        `The $bit modifier only supports 'and', 'or', and 'xor', not '${name}' which is an unknown operator: {${formatElement(name, value)}}`,
      );
    }
    const t = bsonTypeOf(value);
    if (t !== 'int' && t !== 'long') {
      throw new CommandError(
        'BadValue',
        `The $bit modifier field must be an Integer(32/64 bit); a '${t}' is not supported here: {${formatElement(name, value)}}`,
      );
    }
    ops.push({ op: name, operand: toBitValue(value) });
  }
  if (ops.length === 0) {
    throw new CommandError(
      'BadValue',
      'You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}',
    );
  }
  const run = (start: BitValue): BitValue => ops.reduce((acc, { op, operand }) => applyOp(op, acc, operand), start);
  void field;
  return {
    op: '$bit',
    allowCreation: true,
    updateExisting(current, mc) {
      const t = bsonTypeOf(current);
      if (t !== 'int' && t !== 'long') {
        throw new CommandError(
          'BadValue',
          `Cannot apply $bit to a value of non-integral type.${idText(mc.doc)} has the field ${fieldName(mc.pathTaken)} of non-integer type ${t}`,
        );
      }
      const before = toBitValue(current);
      const after = run(before);
      if (after.long === before.long && after.bits === before.bits) return NOOP;
      return fromBitValue(after);
    },
    createValue: () => fromBitValue(run({ long: false, bits: 0n })),
  };
};

/** `$bit`. */
export const bit: ModifierDefinition = { name: '$bit', kind: 'modifier', parse: parseBit };
