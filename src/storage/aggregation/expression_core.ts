/**
 * The aggregation expression compiler's core (mongo/src/mongo/db/pipeline/expression.cpp,
 * `Expression::parseOperand` and friends): operands are field paths (`"$a.b"`), variables
 * (`"$$ROOT"`), expression objects (`{$op: args}`), object literals of expressions, arrays of
 * expressions and constants. Each compiles once to an `Evaluator`; operators register
 * themselves by kind from `expressions/*.ts` through `registerOperators`.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { cloneValue } from '../values/clone.js';
import type { Collator } from '../values/collator.js';
import { assertValidFieldName, parseFieldPath } from './field_path.js';
import { formatValue } from '../values/format.js';
import { MISSING, fieldOf, isDocument } from './value.js';

/** What an expression is evaluated against. */
export interface EvalContext {
  /** `$$ROOT` and `$$CURRENT`. */
  readonly root: Document;
  /** `$$NOW`. */
  readonly now: Date;
  /** User variables in scope: the command's `let` (`$let`/`$map` later). */
  readonly vars?: ReadonlyMap<string, unknown>;
  /** The command's collation (absent or null: simple): comparisons of strings follow it. */
  readonly collator?: Collator | null;
}

/** A compiled expression; returns `MISSING` for an absent value. */
export type Evaluator = (ctx: EvalContext) => unknown;

/** Compile-time state: which user variables are defined. */
export interface ParseState {
  readonly userVars: ReadonlySet<string>;
}

/** Parses the argument of one operator (`arg` is the value of `{$op: arg}`). */
export type OperatorParser = (arg: unknown, ps: ParseState, name: string) => Evaluator;

const OPERATORS = new Map<string, OperatorParser>();

/** Registers a table of operators (name with `$` → parser). */
export function registerOperators(table: Readonly<Record<string, OperatorParser>>): void {
  for (const [name, parser] of Object.entries(table)) OPERATORS.set(name, parser);
}

/** Expression names mongod knows that Mayfly does not implement yet (answered with 238). */
const KNOWN_UNSUPPORTED = new Set(
  (
    '$acos $acosh $allElementsTrue $anyElementTrue $arrayToObject $asin $asinh $atan $atan2 $atanh ' +
    '$binarySize $bitAnd $bitNot $bitOr $bitXor $bsonSize $ceil $concatArrays $convert $cos $cosh ' +
    '$covariancePop $covarianceSamp $dateAdd $dateDiff $dateFromParts $dateFromString $dateSubtract ' +
    '$dateToParts $dateToString $dateTrunc $dayOfMonth $dayOfWeek $dayOfYear $degreesToRadians $exp ' +
    '$filter $first $firstN $floor $function $hour $indexOfArray $indexOfBytes $indexOfCP ' +
    '$isArray $isNumber $isoDayOfWeek $isoWeek $isoWeekYear $last $lastN $let $ln $log $log10 $ltrim ' +
    '$map $maxN $median $mergeObjects $meta $millisecond $minN $minute $month $objectToArray $percentile ' +
    '$pow $radiansToDegrees $range $reduce $regexFind $regexFindAll $regexMatch $replaceAll ' +
    '$replaceOne $reverseArray $round $rtrim $sampleRate $second $setDifference $setEquals ' +
    '$setIntersection $setIsSubset $setUnion $sin $sinh $slice $sortArray $split $sqrt $stdDevPop ' +
    '$stdDevSamp $strcasecmp $strLenBytes $strLenCP $substrCP $switch $tan $tanh $toBool $toDate ' +
    '$toDecimal $toDouble $toInt $toLong $toObjectId $toString $toUUID $trim $trunc $tsIncrement $tsSecond ' +
    '$week $year $zip $toHashedIndexKey $createObjectId $hash $subtype $encStrStartsWith ' +
    '$encStrEndsWith $encStrContains $encStrNormalizedEq $sigmoid $similarityCosine $similarityDotProduct ' +
    '$similarityEuclidean $serializeEJSON $deserializeEJSON'
  ).split(' '),
);

/** True when `name` is an operator Mayfly implements. */
export function isExpressionName(name: string): boolean {
  return OPERATORS.has(name);
}

/** True when `name` is a known mongod expression (implemented or not). */
export function isKnownExpressionName(name: string): boolean {
  return OPERATORS.has(name) || KNOWN_UNSUPPORTED.has(name);
}

/** An empty parse state (no user variables). */
export const ROOT_PARSE_STATE: ParseState = { userVars: new Set() };

/** `Expression::parseOperand`: any value that may appear where an expression is expected. */
export function parseOperand(v: unknown, ps: ParseState): Evaluator {
  if (typeof v === 'string') {
    if (v.charCodeAt(0) === 36 /* $ */) return parseFieldPathExpression(v, ps);
    return () => v;
  }
  if (Array.isArray(v)) {
    const items = v.map((x) => parseOperand(x, ps));
    return (ctx) =>
      items.map((item) => {
        const r = item(ctx);
        return r === MISSING ? null : r;
      });
  }
  if (isDocument(v)) return parseObjectExpression(v, ps);
  return () => v;
}

/** `Expression::parseObject`: `{$op: ...}` or an object literal of expressions. */
export function parseObjectExpression(obj: Document, ps: ParseState): Evaluator {
  const keys = Object.keys(obj);
  if (keys.length === 0) return () => ({});
  if (keys[0]!.charCodeAt(0) === 36) return parseOperatorExpression(obj, ps);
  const fields: Array<[string, Evaluator]> = [];
  for (const key of keys) {
    assertValidFieldName(key);
    fields.push([key, parseOperand(obj[key], ps)]);
  }
  return (ctx) => {
    const out: Document = {};
    for (const [key, ev] of fields) {
      const r = ev(ctx);
      if (r !== MISSING) out[key] = r;
    }
    return out;
  };
}

/** `Expression::parseExpression`: an object whose only field names an operator. */
export function parseOperatorExpression(obj: Document, ps: ParseState): Evaluator {
  const keys = Object.keys(obj);
  if (keys.length !== 1) {
    throw new CommandError(
      15983,
      `An object representing an expression must have exactly one field: ${formatValue(obj)}`,
    );
  }
  const name = keys[0]!;
  const parser = OPERATORS.get(name);
  if (parser === undefined) {
    if (KNOWN_UNSUPPORTED.has(name)) {
      throw new CommandError('NotImplemented', `Expression ${name} is not supported by Mayfly yet`);
    }
    throw new CommandError('InvalidPipelineOperator', `Unrecognized expression '${name}'`);
  }
  return parser(obj[name], ps, name);
}

/** The arguments of an n-ary operator: an array is a list, anything else one argument. */
export function parseArguments(arg: unknown, ps: ParseState): Evaluator[] {
  if (Array.isArray(arg)) return arg.map((x) => parseOperand(x, ps));
  return [parseOperand(arg, ps)];
}

/** The arguments of an operator that takes exactly `n` (code 16020 otherwise). */
export function parseFixedArguments(name: string, arg: unknown, ps: ParseState, n: number): Evaluator[] {
  const args = parseArguments(arg, ps);
  if (args.length !== n) {
    throw new CommandError(
      16020,
      `Expression ${name} takes exactly ${n} arguments. ${args.length} were passed in.`,
    );
  }
  return args;
}

const BUILTIN_UNSUPPORTED_VARS = new Set(['CLUSTER_TIME', 'DESCEND', 'PRUNE', 'KEEP', 'SEARCH_META', 'USER_ROLES', 'SEARCH_SCORE']);

function isLowerAsciiOrNonAscii(code: number): boolean {
  return (code >= 97 && code <= 122) || code > 127;
}

function validateVariableName(name: string): void {
  if (name.length === 0) throw new CommandError(16869, 'empty variable names are not allowed');
  if (!isLowerAsciiOrNonAscii(name.charCodeAt(0))) {
    throw new CommandError(16870, `'${name}' starts with an invalid character for a user variable name`);
  }
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c > 127;
    if (!ok) throw new CommandError(16871, `'${name}' contains an invalid character for a variable name: '${ch}'`);
  }
}

/** `ExpressionFieldPath::parse`: `$a.b`, `$$ROOT`, `$$CURRENT.a`, `$$NOW`, `$$REMOVE`. */
export function parseFieldPathExpression(raw: string, ps: ParseState): Evaluator {
  if (raw.length < 2) throw new CommandError(16872, "'$' by itself is not a valid FieldPath");
  if (raw.charCodeAt(1) !== 36) {
    const parts = parseFieldPath(raw.slice(1));
    return (ctx) => evaluatePathInDocument(ctx.root, parts, 0);
  }
  const body = raw.slice(2);
  const dot = body.indexOf('.');
  const name = dot < 0 ? body : body.slice(0, dot);
  const rest = dot < 0 ? [] : parseFieldPath(body.slice(dot + 1));
  let base: Evaluator;
  switch (name) {
    case 'ROOT':
    case 'CURRENT':
      base = (ctx) => ctx.root;
      break;
    case 'REMOVE':
      base = () => MISSING;
      break;
    case 'NOW':
      base = (ctx) => ctx.now;
      break;
    default:
      if (BUILTIN_UNSUPPORTED_VARS.has(name)) {
        throw new CommandError('NotImplemented', `Variable $$${name} is not supported by Mayfly yet`);
      }
      validateVariableName(name);
      if (!ps.userVars.has(name)) throw new CommandError(17276, `Use of undefined variable: ${name}`);
      base = (ctx) => (ctx.vars?.has(name) ? ctx.vars.get(name) : MISSING);
  }
  if (rest.length === 0) return base;
  return (ctx) => evaluatePath(base(ctx), rest);
}

/** Follows `parts` from a variable's value (documents, then arrays of documents). */
export function evaluatePath(base: unknown, parts: readonly string[]): unknown {
  if (isDocument(base)) return evaluatePathInDocument(base, parts, 0);
  if (Array.isArray(base)) return evaluatePathInArray(base, parts, 0);
  return MISSING;
}

/** `ExpressionFieldPath::evaluatePath`. */
export function evaluatePathInDocument(doc: Document, parts: readonly string[], i: number): unknown {
  const v = fieldOf(doc, parts[i]!);
  if (i === parts.length - 1) return v;
  if (isDocument(v)) return evaluatePathInDocument(v, parts, i + 1);
  if (Array.isArray(v)) return evaluatePathInArray(v, parts, i + 1);
  return MISSING;
}

/** `ExpressionFieldPath::evaluatePathArray`: documents only, missing results dropped. */
function evaluatePathInArray(arr: readonly unknown[], parts: readonly string[], i: number): unknown[] {
  const out: unknown[] = [];
  for (const el of arr) {
    if (!isDocument(el)) continue;
    const r = evaluatePathInDocument(el, parts, i);
    if (r !== MISSING) out.push(r);
  }
  return out;
}

/** `$literal` / `$const`: the argument, unparsed (containers copied on every evaluation). */
export function constant(value: unknown): Evaluator {
  if (typeof value === 'object' && value !== null) return () => cloneValue(value);
  return () => value;
}
