/**
 * Regular expressions of the query language: mongod's PCRE semantics translated into a
 * JavaScript RegExp. Flags i, m, s, x, u are accepted (anything else is 51108); `x` is applied
 * by stripping unescaped whitespace and #-comments; `.` never matches "\n" only (PCRE's default
 * newline), and `$` without `m` also matches before a final "\n"; `\A`, `\z`, `\Z` and a
 * leading `(?imsx)` are translated; named groups `(?P<n>…)` become `(?<n>…)`.
 */
import { CommandError } from '../../errors/command_error.js';

const VALID_FLAGS = 'imsxu';

/** Validates `$options`/regex flags as mongod does (51108 for an unknown letter). */
export function validateRegexFlags(flags: string): void {
  for (const c of flags) {
    if (!VALID_FLAGS.includes(c)) {
      throw new CommandError(51108, ` invalid flag in regex options: ${c}`);
    }
  }
}

/** Compiles a MongoDB regex (pattern + flags) into a RegExp, with mongod's errors. */
export function compileRegex(pattern: string, flags: string): RegExp {
  if (pattern.includes('\0')) {
    throw new CommandError('BadValue', 'Regular expression cannot contain an embedded null byte');
  }
  validateRegexFlags(flags);
  let source = pattern;
  let flagSet = flags;
  // A leading inline option group applies to the whole pattern.
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    flagSet += inline[1];
    source = source.slice(inline[0].length);
  }
  const translated = translate(source, flagSet.includes('x'), flagSet.includes('s'), flagSet.includes('m'));
  let jsFlags = '';
  if (flagSet.includes('i')) jsFlags += 'i';
  if (flagSet.includes('m')) jsFlags += 'm';
  if (flagSet.includes('s')) jsFlags += 's';
  try {
    return new RegExp(translated, jsFlags + 'u');
  } catch {
    try {
      return new RegExp(translated, jsFlags);
    } catch (err) {
      throw new CommandError(51091, `Regular expression is invalid: ${(err as Error).message}`);
    }
  }
}

/** Rewrites PCRE-only syntax into JavaScript syntax (see module comment). */
function translate(src: string, extended: boolean, dotAll: boolean, multiline: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) {
        out += '\\';
        continue;
      }
      i++;
      if (!inClass) {
        if (n === 'A') {
          out += '(?<![\\s\\S])';
          continue;
        }
        if (n === 'z') {
          out += '(?![\\s\\S])';
          continue;
        }
        if (n === 'Z') {
          out += '(?=\\n?(?![\\s\\S]))';
          continue;
        }
      }
      out += '\\' + n;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A ']' right after '[' or '[^' is literal in PCRE.
      if (src[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (src[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (extended) {
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') continue;
      if (c === '#') {
        while (i < src.length && src[i] !== '\n') i++;
        continue;
      }
    }
    if (c === '.' && !dotAll) {
      out += '[^\\n]';
      continue;
    }
    if (c === '$' && !multiline) {
      out += '(?=\\n?(?![\\s\\S]))';
      continue;
    }
    if (c === '(' && src.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    if (c === '(' && src.startsWith('(?P=', i)) {
      const end = src.indexOf(')', i);
      if (end > 0) {
        out += `\\k<${src.slice(i + 4, end)}>`;
        i = end;
        continue;
      }
    }
    out += c;
  }
  return out;
}
