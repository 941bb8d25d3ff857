/** The string operators, sorted by name: one line each. */
import type { ExpressionOperator } from '../../types.js';
import { concat } from './concat.js';
import { indexOfBytes } from './index_of_bytes.js';
import { indexOfCP } from './index_of_cp.js';
import { ltrim } from './ltrim.js';
import { regexFind } from './regex_find.js';
import { regexFindAll } from './regex_find_all.js';
import { regexMatch } from './regex_match.js';
import { replaceAll } from './replace_all.js';
import { replaceOne } from './replace_one.js';
import { rtrim } from './rtrim.js';
import { split } from './split.js';
import { strcasecmp } from './strcasecmp.js';
import { strLenBytes } from './str_len_bytes.js';
import { strLenCP } from './str_len_cp.js';
import { substr } from './substr.js';
import { substrBytes } from './substr_bytes.js';
import { substrCP } from './substr_cp.js';
import { toLower } from './to_lower.js';
import { toUpper } from './to_upper.js';
import { trim } from './trim.js';

/** String expression operators. */
export const STRING: readonly ExpressionOperator[] = [
  concat,
  indexOfBytes,
  indexOfCP,
  ltrim,
  regexFind,
  regexFindAll,
  regexMatch,
  replaceAll,
  replaceOne,
  rtrim,
  split,
  strLenBytes,
  strLenCP,
  strcasecmp,
  substr,
  substrBytes,
  substrCP,
  toLower,
  toUpper,
  trim,
];
