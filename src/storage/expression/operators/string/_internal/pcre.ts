/**
 * PCRE to JavaScript: mongod compiles `$regexFind`, `$regexFindAll` and `$regexMatch` patterns
 * with PCRE2 (UTF mode, newline LF); Mayfly runs them as a JavaScript RegExp with the `u` flag,
 * after a translation of where the two dialects differ:
 *   - anchors and dots are spelled out, so that their meaning follows the PCRE flags in force
 *     at that point of the pattern (`(?m)`, `(?s)` inline or scoped; the RegExp never has the
 *     `m` or `s` flag, so its `^` and `$` are the ends of the input): `$` also matches before a
 *     final newline, `\Z`, `\z`, `\A`, `.` excludes only LF;
 *   - a case-insensitive part of a pattern whose case sensitivity changes (`(?i)`, `(?-i)`,
 *     `(?i:...)`), or of one with Unicode properties (which the `i` flag would close under case,
 *     as PCRE does not), has its letters spelled as classes of both cases;
 *   - `x` (extended) drops white space and `#` comments; `\Q...\E` quotes;
 *   - atomic groups and possessive quantifiers become a lookahead and a back-reference;
 *   - PCRE's escapes without a JavaScript spelling (`\h`, `\v`, `\R`, `\x{...}`, `\N{U+...}`,
 *     `\e`, octal, POSIX classes, `\pL`, scripts) are spelled out, and its ASCII `\s`; a negated
 *     set inside a class (`[a\S]`, `[[:^digit:]]`) becomes an alternation or lookaheads;
 *   - a lookbehind must be of fixed length, as PCRE2 before 10.43 requires; inside one
 *     (matched right to left by JavaScript) atomic groups are plain groups.
 * Checked against PCRE2 10.42 (`grep -P`, ASCII subjects) on random patterns. Known gaps: a
 * back-reference to a group that has not matched matches empty (PCRE: fails); `(?|`, `(?R)`,
 * `(?1)`, `\K`, `(*VERB)`, `(?U)`, `(?J)` are refused.
 * The captures the pattern defines keep PCRE's numbers: `captureGroups` maps them to the
 * JavaScript groups. What cannot be translated is an error, as PCRE's compile errors are.
 */

/** A pattern translated: the RegExp, and the JavaScript group of each PCRE capture (1-based). */
export interface TranslatedRegex {
  readonly regex: RegExp;
  readonly captureGroups: readonly number[];
}

/** A PCRE compile error (mongod reports it as 51111). */
export class PcreError extends Error {}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
}

/** An open group: what closes it, the flags outside it, and the lengths its branches match. */
interface Group {
  readonly close: string;
  readonly outer: Flags;
  readonly lookbehind: boolean;
  /** A lookaround: it matches no characters of its own. */
  readonly assertion: boolean;
  /** Where the group starts in the output (for a quantifier that follows it). */
  readonly start: number;
  /** Fixed lengths of the finished branches (null: variable). */
  readonly branches: Array<number | null>;
  /** The length of the current branch so far (null: variable). */
  length: number | null;
}

const MARK_CAPTURE = '\u0001';
const MARK_INJECTED = '\u0002';
const MARK_BACKREF = '\u0003';
const MARK_INJECTED_REF = '\u0004';
const MARK_NAMED_REF = '\u0005';

const SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));
const PCRE_SPACE = '\\t\\n\\x0b\\f\\r ';
const H_SPACE = '\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000';
const V_SPACE = '\\n\\x0b\\f\\r\\x85\\u2028\\u2029';

const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7f',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: PCRE_SPACE,
  upper: 'A-Z',
  word: '\\w',
  xdigit: '0-9A-Fa-f',
};

const GENERAL_CATEGORIES = new Set([
  'C', 'Cc', 'Cf', 'Cn', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn',
  'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm',
  'So', 'Z', 'Zl', 'Zp', 'Zs',
]);

function hex(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

/** A code point as a literal of a JavaScript `u` pattern, outside or inside a class. */
function literal(cp: number, inClass: boolean): string {
  const ch = String.fromCodePoint(cp);
  if (SYNTAX.has(ch) || (inClass && ch === '-')) return `\\${ch}`;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0xd800 && cp <= 0xdfff)) return hex(cp);
  return ch;
}

/** The other cases of a code point (simple mappings only). */
function caseVariants(cp: number): number[] {
  const ch = String.fromCodePoint(cp);
  const out = new Set<number>([cp]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
    if ([...v].length === 1) out.add(v.codePointAt(0)!);
  }
  return [...out];
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isHexDigit(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

function isAlphanumeric(c: string | undefined): boolean {
  return c !== undefined && /^[A-Za-z0-9]$/.test(c);
}

/**
 * True when case-insensitivity cannot be JavaScript's `i` flag: `(?` flag groups change case
 * sensitivity somewhere, or the pattern has Unicode properties (which the flag closes under
 * case, as PCRE does not: caseless `\p{Lu}` is still upper case letters only).
 */
function changesCase(pattern: string): boolean {
  return /\(\?[a-zA-Z]*-?[a-zA-Z]*i[a-zA-Z]*[:)]/.test(pattern) || /\(\?\^/.test(pattern) || /\\[pP]/.test(pattern);
}

/** The translator of one pattern. */
class Translator {
  private readonly p: string;
  private pos = 0;
  private out = '';
  private flags: Flags;
  private readonly caseByExpansion: boolean;
  private readonly groups: Group[] = [];
  private captures = 0;
  private injected = 0;
  private readonly names = new Map<string, number>();
  /** Where the last quantifiable item starts in the output, and its fixed length (null: variable). */
  private atomStart = -1;
  private atomLength: number | null = 0;

  constructor(pattern: string, flags: Flags) {
    this.p = pattern;
    this.flags = { ...flags };
    this.caseByExpansion = changesCase(pattern);
  }

  /** The JavaScript flags: `u`, `g`, and `i` when case-insensitivity is uniform. */
  jsFlags(initialI: boolean): string {
    return (!this.caseByExpansion && initialI ? 'giu' : 'gu') + (this.sticky ? 'y' : '');
  }

  /** Whether the pattern starts with `\G`. */
  private sticky = false;

  /** The negated sets (`\S`, `[:^alpha:]`) of the class being read, as the bodies of their negations. */
  private classNegatedBodies: string[] = [];

  /** Whether the last class member `classCodePoint` read was a class escape. */
  private lastMemberWasClassEscape = false;

  /** PCRE2's reason alone, as mongod's 51111 gives it (`errorMessage(re->error())`, no offset). */
  private fail(message: string): never {
    throw new PcreError(message);
  }

  /**
   * The pattern from `offset` past the position, as far as any construct read at once can reach
   * (group names, braces, escapes): bounded, so that reading a long pattern stays linear.
   */
  private ahead(offset: number): string {
    return this.p.slice(this.pos + offset, this.pos + offset + 80);
  }

  private peek(offset = 0): string | undefined {
    return this.p[this.pos + offset];
  }

  /** The next code point of the pattern, consumed. */
  private nextCodePoint(): number {
    const cp = this.p.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  /** Whether letters of the current part need spelling in both cases. */
  private get expandCase(): boolean {
    return this.caseByExpansion && this.flags.i;
  }

  /**
   * Whether a lookbehind is open: JavaScript matches it right to left, so the back-reference of
   * an atomic group would come before its capture; there a lookbehind's fixed-length content
   * has nothing to give back anyway, and atomic groups are plain ones.
   */
  private insideLookbehind(): boolean {
    return this.groups.some((g) => g.lookbehind);
  }

  private current(): Group | null {
    return this.groups.length === 0 ? null : this.groups[this.groups.length - 1]!;
  }

  /** Adds to the length of the current branch. */
  private grow(n: number | null): void {
    const g = this.current();
    const apply = (len: number | null) => (len === null || n === null ? null : len + n);
    if (g !== null) g.length = apply(g.length);
  }

  /** Emits a quantifiable item of fixed length `length`. */
  private atom(text: string, length: number | null): void {
    this.atomStart = this.out.length;
    this.atomLength = length;
    this.out += text;
    this.grow(length);
  }

  /** Emits something no quantifier may follow (an anchor, a flag group). */
  private assertion(text: string): void {
    this.atomStart = -1;
    this.out += text;
  }

  translate(): string {
    while (this.pos < this.p.length) this.step();
    if (this.groups.length > 0) this.fail('missing closing parenthesis');
    return this.resolve(this.out);
  }

  /** Replaces the group markers by JavaScript's numbering. */
  private resolve(text: string): string {
    const pcreToJs: number[] = [];
    const injectedToJs: number[] = [];
    let js = 0;
    const markers = new RegExp(`${MARK_CAPTURE}(\\d+)${MARK_CAPTURE}|${MARK_INJECTED}(\\d+)${MARK_INJECTED}`, 'g');
    for (const m of text.matchAll(markers)) {
      js++;
      if (m[1] !== undefined) pcreToJs[Number(m[1])] = js;
      else injectedToJs[Number(m[2])] = js;
    }
    this.captureGroups = [];
    for (let k = 1; k <= this.captures; k++) this.captureGroups.push(pcreToJs[k]!);
    return text
      .replace(markers, '')
      .replace(new RegExp(`${MARK_NAMED_REF}(\\w+)${MARK_NAMED_REF}`, 'g'), (_, name: string) => {
        const k = this.names.get(name);
        if (k === undefined) this.fail('reference to non-existent subpattern');
        return `${MARK_BACKREF}${k}${MARK_BACKREF}`;
      })
      .replace(new RegExp(`${MARK_BACKREF}(\\d+)${MARK_BACKREF}`, 'g'), (_, n: string) => {
        const target = pcreToJs[Number(n)];
        if (target === undefined) this.fail('reference to non-existent subpattern');
        return `(?:\\${target})`;
      })
      .replace(new RegExp(`${MARK_INJECTED_REF}(\\d+)${MARK_INJECTED_REF}`, 'g'), (_, n: string) => `\\${injectedToJs[Number(n)]!}`);
  }

  captureGroups: number[] = [];

  private step(): void {
    const c = this.p[this.pos]!;
    if (this.flags.x) {
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\x0b') {
        this.pos++;
        return;
      }
      if (c === '#') {
        while (this.pos < this.p.length && this.p[this.pos] !== '\n') this.pos++;
        return;
      }
    }
    switch (c) {
      case '\\':
        this.escape();
        return;
      case '[':
        this.characterClass();
        return;
      case '(':
        this.openGroup();
        return;
      case ')':
        this.closeGroup();
        return;
      case '|':
        this.pos++;
        this.alternative();
        return;
      case '.':
        this.pos++;
        this.atom(this.flags.s ? '[\\s\\S]' : '[^\\n]', 1);
        return;
      case '^':
        this.pos++;
        this.assertion(this.flags.m ? '(?:^|(?<=\\n)(?=[\\s\\S]))' : '^');
        return;
      case '$':
        this.pos++;
        this.assertion(this.flags.m ? '(?=\\n|$)' : '(?=\\n?$)');
        return;
      case '*':
      case '+':
      case '?':
        this.quantifier();
        return;
      case '{':
        if (this.braceQuantifier() !== null) this.quantifier();
        else {
          this.pos++;
          this.literalAtom(0x7b);
        }
        return;
      default:
        this.literalAtom(this.nextCodePoint());
    }
  }

  private literalAtom(cp: number): void {
    if (this.expandCase) {
      const variants = caseVariants(cp);
      if (variants.length > 1) {
        this.atom(`[${variants.map((v) => literal(v, true)).join('')}]`, 1);
        return;
      }
    }
    this.atom(literal(cp, false), 1);
  }

  /** `{n}`, `{n,}`, `{n,m}` at the current position: its bounds, or null when the brace is a literal. */
  private braceQuantifier(): { min: number; max: number | null; text: string } | null {
    const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.ahead(0));
    if (m === null) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? null : Number(m[3]);
    if (max !== null && max < min) this.fail('numbers out of order in {} quantifier');
    if (min > 65535 || (max !== null && max > 65535)) this.fail('number too big in {} quantifier');
    return { min, max, text: m[0] };
  }

  private quantifier(): void {
    let min: number;
    let max: number | null;
    let text: string;
    const c = this.p[this.pos]!;
    if (c === '{') {
      const q = this.braceQuantifier()!;
      ({ min, max, text } = q);
    } else {
      text = c;
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : null;
    }
    if (this.atomStart < 0) this.fail('quantifier does not follow a repeatable item');
    this.pos += text.length;
    // A comment is nothing: `a+(?#c)+` is possessive.
    while (this.p.startsWith('(?#', this.pos)) {
      const end = this.p.indexOf(')', this.pos);
      if (end < 0) this.fail('missing ) after (?# comment');
      this.pos = end + 1;
    }
    let mode = '';
    if (this.peek() === '?' || this.peek() === '+') mode = this.p[this.pos++]!;
    const start = this.atomStart;
    const item = this.out.slice(start);
    // The length the item added is replaced by the repeated length.
    const itemLength = this.atomLength;
    const repeated = itemLength === null || max === null || min !== max ? (itemLength === 0 ? 0 : null) : itemLength * min;
    this.replaceGrowth(itemLength, repeated);
    if (mode === '+' && !this.insideLookbehind()) {
      const id = this.injected++;
      this.out = `${this.out.slice(0, start)}(?=(${MARK_INJECTED}${id}${MARK_INJECTED}(?:${item})${text}))${MARK_INJECTED_REF}${id}${MARK_INJECTED_REF}`;
    } else {
      this.out = `${this.out.slice(0, start)}(?:${item})${text}${mode === '+' ? '' : mode}`;
    }
    // A quantified item cannot be quantified again.
    this.atomStart = -1;
  }

  /** Corrects the current branch's length once an item of length `was` is repeated to `now`. */
  private replaceGrowth(was: number | null, now: number | null): void {
    const g = this.current();
    const fix = (len: number | null) => (len === null || was === null ? (now === null ? null : len) : now === null ? null : len - was + now);
    if (g !== null) g.length = fix(g.length);
  }

  private alternative(): void {
    const g = this.current();
    if (g !== null) {
      g.branches.push(g.length);
      g.length = 0;
      // Flags set inside a group reach to its end, across its branches.
    }
    this.assertion('|');
  }

  private parseFlags(text: string): Flags {
    const flags = { ...this.flags };
    let on = true;
    for (const f of text) {
      if (f === '-') on = false;
      else if (f === 'i' || f === 'm' || f === 's' || f === 'x') flags[f] = on;
      else if (f === 'J' || f === 'U' || f === 'n') this.fail(`unsupported option (?${f})`);
      else this.fail('unrecognized character after (? or (?-');
    }
    return flags;
  }

  private openGroup(): void {
    const start = this.out.length;
    const rest = this.ahead(0);
    const push = (open: string, close: string, lookbehind = false, outer: Flags = { ...this.flags }, assertion = lookbehind) => {
      this.out += open;
      this.groups.push({ close, outer, lookbehind, assertion, start, branches: [], length: 0 });
      this.atomStart = -1;
    };
    let m: RegExpExecArray | null;
    if (rest.startsWith('(?#')) {
      const end = this.p.indexOf(')', this.pos);
      if (end < 0) this.fail('missing ) after (?# comment');
      this.pos = end + 1;
      return;
    }
    if (rest.startsWith('(*')) this.fail('(*VERB) not recognized or malformed');
    if ((m = /^\(\?(<|P<|')([A-Za-z_][A-Za-z0-9_]*)[>']/.exec(rest)) !== null) {
      const name = m[2]!;
      if (this.names.has(name)) this.fail('two named subpatterns have the same name (PCRE2_DUPNAMES not set)');
      this.pos += m[0].length;
      const k = ++this.captures;
      this.names.set(name, k);
      push(`(?<${name}>${MARK_CAPTURE}${k}${MARK_CAPTURE}`, ')');
      return;
    }
    if ((m = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest)) !== null) {
      this.pos += m[0].length;
      this.namedBackreference(m[1]!);
      return;
    }
    if (rest.startsWith('(?:')) {
      this.pos += 3;
      push('(?:', ')');
      return;
    }
    if (rest.startsWith('(?=') || rest.startsWith('(?!')) {
      this.pos += 3;
      push(rest.slice(0, 3), ')', false, { ...this.flags }, true);
      return;
    }
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) {
      this.pos += 4;
      push(rest.slice(0, 4), ')', true);
      return;
    }
    if (rest.startsWith('(?>')) {
      this.pos += 3;
      if (this.insideLookbehind()) {
        push('(?:', ')');
        return;
      }
      const id = this.injected++;
      push(`(?=(${MARK_INJECTED}${id}${MARK_INJECTED}`, `))${MARK_INJECTED_REF}${id}${MARK_INJECTED_REF}`);
      return;
    }
    if ((m = /^\(\?([a-zA-Z-]*)([:)])/.exec(rest)) !== null) {
      const flags = this.parseFlags(m[1]!);
      this.pos += m[0].length;
      if (m[2] === ')') {
        // Until the end of the enclosing group.
        this.flags = flags;
        this.atomStart = -1;
        return;
      }
      const outer = { ...this.flags };
      this.flags = flags;
      push('(?:', ')', false, outer);
      return;
    }
    if (rest.startsWith('(?')) this.fail('unrecognized character after (? or (?-');
    this.pos++;
    const k = ++this.captures;
    push(`(${MARK_CAPTURE}${k}${MARK_CAPTURE}`, ')');
  }

  private closeGroup(): void {
    const g = this.groups.pop();
    if (g === undefined) this.fail('unmatched closing parenthesis');
    this.pos++;
    g.branches.push(g.length);
    this.flags = g.outer;
    if (g.lookbehind && g.branches.some((b) => b === null)) this.fail('lookbehind assertion is not fixed length');
    this.out += g.close;
    const first = g.branches[0]!;
    const fixed = g.branches.every((b) => b === first) ? first : null;
    this.atomStart = g.start;
    this.atomLength = g.assertion ? 0 : fixed;
    this.grow(this.atomLength);
  }

  /** A back-reference by name: resolved at the end, since it may come before its group. */
  private namedBackreference(name: string): void {
    this.atom(`${MARK_NAMED_REF}${name}${MARK_NAMED_REF}`, null);
  }

  private numberedBackreference(k: number): void {
    this.atom(`${MARK_BACKREF}${k}${MARK_BACKREF}`, null);
  }

  /** An escape outside a class. */
  private escape(): void {
    const e = this.p[this.pos + 1];
    if (e === undefined) this.fail('\\ at end of pattern');
    switch (e) {
      case 'A':
        this.pos += 2;
        return this.assertion('^');
      case 'Z':
        this.pos += 2;
        return this.assertion('(?=\\n?$)');
      case 'z':
        this.pos += 2;
        return this.assertion('$');
      case 'b':
      case 'B':
        this.pos += 2;
        return this.assertion(`\\${e}`);
      case 'G':
        // \G is the search position: at the start of the pattern, a sticky RegExp; elsewhere
        // the start of the input (where the first search starts).
        this.pos += 2;
        if (this.out === '' && this.groups.length === 0) {
          this.sticky = true;
          return this.assertion('');
        }
        return this.assertion('^');
      case 'K':
        this.fail('\\K is not supported');
        break;
      case 'Q': {
        this.pos += 2;
        const end = this.p.indexOf('\\E', this.pos);
        const stop = end < 0 ? this.p.length : end;
        while (this.pos < stop) this.literalAtom(this.nextCodePoint());
        this.pos = end < 0 ? this.p.length : end + 2;
        return;
      }
      case 'E':
        this.pos += 2;
        return;
      case 'R':
        this.pos += 2;
        // Atomic in PCRE: a CRLF is never split.
        return this.atom(`(?:\\r\\n|(?!\\r\\n)[${V_SPACE}])`, null);
      case 'X':
        this.pos += 2;
        // A character and its marks, all of them (a cluster gives none back).
        return this.atom('(?:[\\s\\S]\\p{M}*(?!\\p{M}))', null);
      case 'N': {
        const named = /^\{U\+([0-9a-fA-F]+)\}/.exec(this.ahead(2));
        if (named !== null) {
          this.pos += 2 + named[0].length;
          const cp = parseInt(named[1]!, 16);
          if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail('character code point value in \\N{U+...} is invalid');
          return this.literalAtom(cp);
        }
        this.pos += 2;
        return this.atom('[^\\n]', 1);
      }
      case 'C':
        this.pos += 2;
        return this.atom('[\\s\\S]', 1);
      case 'g':
      case 'k':
        return this.referenceEscape(e);
      default:
        break;
    }
    if (isDigit(e) && e !== '0') {
      // A back-reference: \1 to \9 always; more digits while the number names a group so far.
      const m = /^\d+/.exec(this.ahead(1))!;
      const n = Number(m[0]);
      if (n < 10 || n <= this.captures) {
        this.pos += 1 + m[0].length;
        return this.numberedBackreference(n);
      }
    }
    const cls = this.classEscape(false);
    if (cls !== null) return this.atom(cls, 1);
    this.literalAtom(this.charEscape());
  }

  /** `\g{n}`, `\g{-n}`, `\gn`, `\g{name}`, `\k<name>`, `\k'name'`, `\k{name}`. */
  private referenceEscape(e: string): void {
    const rest = this.ahead(2);
    let m: RegExpExecArray | null;
    if (e === 'g' && (m = /^(?:\{(-?\d+)\}|(-?\d+))/.exec(rest)) !== null) {
      this.pos += 2 + m[0].length;
      let n = Number(m[1] ?? m[2]);
      if (n < 0) n = this.captures + 1 + n;
      if (n <= 0) this.fail('a relative value of zero is not allowed');
      return this.numberedBackreference(n);
    }
    if ((m = /^(?:\{([A-Za-z_]\w*)\}|<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')/.exec(rest)) !== null) {
      if (e === 'g' && m[0].startsWith('<')) this.fail('subroutine calls are not supported');
      this.pos += 2 + m[0].length;
      return this.namedBackreference(m[1] ?? m[2] ?? m[3]!);
    }
    this.fail(e === 'g' ? 'a numbered reference must not be zero' : '\\k is not followed by a braced, angle-bracketed, or quoted name');
  }

  /**
   * A class escape at the current position (`\d`, `\s`, `\w`, `\h`, `\v`, `\p{..}` and their
   * negations): its JavaScript text, consumed; or null. `inClass`: the text goes inside `[...]`.
   */
  private classEscape(inClass: boolean): string | null {
    const e = this.p[this.pos + 1]!;
    const wrap = (body: string, negated: boolean): string => {
      if (!inClass) return negated ? `[^${body}]` : `[${body}]`;
      if (!negated) return body;
      // A negated set inside a class: the class is built around it (characterClass).
      this.classNegatedBodies.push(body);
      return '';
    };
    let text: string;
    switch (e) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        this.pos += 2;
        return `\\${e}`;
      case 's':
        this.pos += 2;
        return inClass ? PCRE_SPACE : `[${PCRE_SPACE}]`;
      case 'S':
        text = wrap(PCRE_SPACE, true);
        break;
      case 'h':
        this.pos += 2;
        return wrap(H_SPACE, false);
      case 'H':
        text = wrap(H_SPACE, true);
        break;
      case 'v':
        this.pos += 2;
        return wrap(V_SPACE, false);
      case 'V':
        text = wrap(V_SPACE, true);
        break;
      case 'p':
      case 'P':
        return this.propertyEscape(e === 'P');
      default:
        return null;
    }
    this.pos += 2;
    return text;
  }

  private propertyEscape(negatedEscape: boolean): string {
    const rest = this.ahead(2);
    const m = /^(?:\{(\^?)([A-Za-z_&]+)\}|([A-Za-z]))/.exec(rest);
    if (m === null) this.fail('malformed \\P or \\p sequence');
    this.pos += 2 + m[0].length;
    const negated = negatedEscape !== (m[1] === '^');
    const name = m[2] ?? m[3]!;
    const letter = negated ? 'P' : 'p';
    if (name === 'Any') return negated ? '[^\\s\\S]' : '[\\s\\S]';
    if (name === 'L&') return `\\${letter}{LC}`;
    if (GENERAL_CATEGORIES.has(name)) return `\\${letter}{${name}}`;
    try {
      new RegExp(`\\p{Script=${name}}`, 'u');
    } catch {
      this.fail('unknown property name after \\P or \\p');
    }
    return `\\${letter}{Script=${name}}`;
  }

  /** A character escape at the current position: the code point it stands for, consumed. */
  private charEscape(): number {
    const e = this.p[this.pos + 1]!;
    const rest = this.ahead(2);
    let m: RegExpExecArray | null;
    switch (e) {
      case 'a':
        this.pos += 2;
        return 0x07;
      case 'e':
        this.pos += 2;
        return 0x1b;
      case 'f':
        this.pos += 2;
        return 0x0c;
      case 'n':
        this.pos += 2;
        return 0x0a;
      case 'r':
        this.pos += 2;
        return 0x0d;
      case 't':
        this.pos += 2;
        return 0x09;
      case 'x': {
        if ((m = /^\{([0-9a-fA-F]+)\}/.exec(rest)) !== null) {
          this.pos += 2 + m[0].length;
          const cp = parseInt(m[1]!, 16);
          if (cp > 0x10ffff) this.fail('character code point value in \\x{} or \\o{} is too large');
          if (cp >= 0xd800 && cp <= 0xdfff) this.fail('disallowed Unicode code point (>= 0xd800 && <= 0xdfff)');
          return cp;
        }
        let digits = '';
        while (digits.length < 2 && isHexDigit(rest[digits.length])) digits += rest[digits.length];
        this.pos += 2 + digits.length;
        return digits === '' ? 0 : parseInt(digits, 16);
      }
      case 'o': {
        if ((m = /^\{([0-7]+)\}/.exec(rest)) === null) this.fail('missing opening brace after \\o');
        this.pos += 2 + m[0].length;
        return parseInt(m[1]!, 8);
      }
      case 'c': {
        const x = rest[0];
        if (x === undefined) this.fail('\\c at end of pattern');
        const code = x.toUpperCase().charCodeAt(0);
        if (code > 127) this.fail('\\c must be followed by a printable ASCII character');
        this.pos += 3;
        return code ^ 0x40;
      }
      default:
        break;
    }
    if (isDigit(e)) {
      // Octal: \0 and up to two more octal digits, or up to three octal digits.
      const m2 = /^[0-7]{1,3}/.exec(this.ahead(1));
      if (m2 === null) this.fail('\\8 or \\9 is not a valid escape here');
      this.pos += 1 + m2[0].length;
      return parseInt(m2[0], 8);
    }
    if (isAlphanumeric(e)) this.fail('unrecognized character follows \\');
    this.pos += 1;
    return this.nextCodePoint();
  }

  /** `[...]`: PCRE's class, `]` first a literal, POSIX classes, escapes. */
  private characterClass(): void {
    this.pos++;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const items: string[] = [];
    let first = true;
    let closed = false;
    // The last single code point added, for a range.
    let last: number | null = null;
    // Whether the last member was a class escape (`\d`): no range may start from it.
    let afterClassEscape = false;
    while (this.pos < this.p.length) {
      const c = this.p[this.pos]!;
      if (c === ']' && !first) {
        this.pos++;
        closed = true;
        break;
      }
      first = false;
      if (c === '[') {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(this.ahead(0));
        if (m !== null) {
          // Caseless, upper and lower case letters are all letters (as PCRE2 folds them).
          const name = this.expandCase && (m[2] === 'upper' || m[2] === 'lower') ? 'alpha' : m[2]!;
          const body = POSIX_CLASSES[name];
          if (body === undefined) this.fail('unknown POSIX class name');
          if (m[1] === '^') this.classNegatedBodies.push(body);
          else items.push(body);
          this.pos += m[0].length;
          last = null;
          afterClassEscape = true;
          continue;
        }
        if (/^\[[.=]/.test(this.ahead(0))) this.fail('POSIX collating elements are not supported');
      }
      const rangeAhead = c === '-' && this.p[this.pos + 1] !== ']' && this.pos + 1 < this.p.length;
      if (rangeAhead && afterClassEscape) this.fail('invalid range in character class');
      if (rangeAhead && last !== null) {
        // A range from the last code point.
        this.pos++;
        const before = items.length;
        const to = this.classCodePoint(items);
        if (to === null) {
          // `a-\d` is refused; `a-\Q\E...` leaves the hyphen a literal.
          if (items.length > before && this.lastMemberWasClassEscape) this.fail('invalid range in character class');
          items.push(literal(0x2d, true));
          last = null;
          continue;
        }
        if (to < last) this.fail('range out of order in character class');
        items.pop();
        items.push(this.rangeText(last, to));
        last = null;
        continue;
      }
      const cp = this.classCodePoint(items);
      afterClassEscape = cp === null && this.lastMemberWasClassEscape;
      if (cp === null) {
        last = null;
        continue;
      }
      items.push(this.classLiteral(cp));
      last = cp;
    }
    if (!closed) this.fail('missing terminating ] for character class');
    const body = items.join('');
    const negatedSets = this.classNegatedBodies;
    this.classNegatedBodies = [];
    if (negatedSets.length === 0) {
      this.atom(`[${negated ? '^' : ''}${body}]`, 1);
    } else if (!negated) {
      // [x\S] is x, or anything not a space.
      const branches = [...(body === '' ? [] : [`[${body}]`]), ...negatedSets.map((b) => `[^${b}]`)];
      this.atom(`(?:${branches.join('|')})`, 1);
    } else {
      // [^x\S] is a space that is not x.
      this.atom(`${body === '' ? '' : `(?![${body}])`}${negatedSets.map((b) => `(?=[${b}])`).join('')}[\\s\\S]`, 1);
    }
  }

  /** A literal of a class, both cases when they must be spelled. */
  private classLiteral(cp: number): string {
    if (!this.expandCase) return literal(cp, true);
    return caseVariants(cp)
      .map((v) => literal(v, true))
      .join('');
  }

  private rangeText(from: number, to: number): string {
    let text = `${literal(from, true)}-${literal(to, true)}`;
    if (this.expandCase && to - from <= 0x3000) {
      const extra = new Set<number>();
      for (let cp = from; cp <= to; cp++) {
        for (const v of caseVariants(cp)) if (v < from || v > to) extra.add(v);
      }
      for (const v of extra) text += literal(v, true);
    }
    return text;
  }

  /**
   * The next member of a class: a code point (consumed; the caller adds it), or null when the
   * member was a class escape or a quoting, which is added to `items` here.
   */
  private classCodePoint(items: string[]): number | null {
    this.lastMemberWasClassEscape = false;
    const c = this.p[this.pos]!;
    if (c !== '\\') return this.nextCodePoint();
    const e = this.p[this.pos + 1];
    if (e === undefined) this.fail('\\ at end of pattern');
    if (e === 'b') {
      this.pos += 2;
      return 0x08;
    }
    if (e === 'Q') {
      this.pos += 2;
      const end = this.p.indexOf('\\E', this.pos);
      const stop = end < 0 ? this.p.length : end;
      while (this.pos < stop) items.push(this.classLiteral(this.nextCodePoint()));
      this.pos = end < 0 ? this.p.length : end + 2;
      return null;
    }
    if (e === 'E') {
      this.pos += 2;
      return null;
    }
    if (e === 'N' || e === 'R' || e === 'X') this.fail(`escape sequence \\${e} is invalid in character class`);
    const cls = this.classEscape(true);
    if (cls !== null) {
      items.push(cls);
      this.lastMemberWasClassEscape = true;
      return null;
    }
    return this.charEscape();
  }
}

/**
 * Translates a PCRE pattern under mongod's options (already checked: i m s x u) into a
 * JavaScript RegExp with the `g` and `u` flags. Throws PcreError when PCRE would refuse it
 * (or when it uses what cannot be translated).
 */
export function translatePcre(pattern: string, options: string): TranslatedRegex {
  const flags: Flags = { i: options.includes('i'), m: options.includes('m'), s: options.includes('s'), x: options.includes('x') };
  const t = new Translator(pattern, flags);
  const source = t.translate();
  try {
    return { regex: new RegExp(source, t.jsFlags(flags.i)), captureGroups: t.captureGroups };
  } catch (err) {
    throw new PcreError((err as Error).message.replace(/^Invalid regular expression: /, ''));
  }
}
