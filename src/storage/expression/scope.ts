/**
 * Parse-time variable scopes (mongod's `VariablesParseState`): a scope knows the user variables
 * visible where an expression stands, each with the slot of `Frame.vars` its definition was
 * given; `$let`, `$map`, `$filter`, `$reduce` and the stages that bind variables define theirs in
 * a child scope, so a name is visible exactly where mongod makes it visible. Slots are numbered
 * across a whole tree of scopes (one command), so one array holds every variable's value and a
 * nested definition never overwrites an outer one.
 */
import { parseArguments, parseFixedArguments, parseOperand, currentOf, validateNameForUserWrite, type GrammarScope } from './grammar.js';
import type { Evaluator } from './types.js';

/** What the scopes of one tree share: the next free slot, and whether the document was read. */
interface ScopeTree {
  slots: number;
  documentRead: boolean;
}

/** A scope of variables. */
export class Scope implements GrammarScope {
  private readonly names = new Map<string, number>();

  private constructor(
    private readonly tree: ScopeTree,
    private readonly parent: Scope | null,
  ) {}

  /** A new tree of scopes with no variable defined. */
  static root(): Scope {
    return new Scope({ slots: 0, documentRead: false }, null);
  }

  /** True once an expression parsed in this tree read the document (a field path, `$$ROOT`). */
  get documentRead(): boolean {
    return this.tree.documentRead;
  }

  parse(arg: unknown): Evaluator {
    return parseOperand(arg, this);
  }

  parseArguments(arg: unknown): Evaluator[] {
    return parseArguments(arg, this);
  }

  parseFixedArguments(name: string, arg: unknown, n: number): Evaluator[] {
    return parseFixedArguments(name, arg, this, n);
  }

  child(): Scope {
    return new Scope(this.tree, this);
  }

  define(name: string): number {
    validateNameForUserWrite(name);
    return this.bind(name);
  }

  /**
   * Defines `name` without checking it (a name the caller validated by other rules: the
   * command's `let`, an update's constants `c`, `$redact`'s `$$DESCEND`); returns its slot.
   */
  bind(name: string): number {
    const slot = this.tree.slots++;
    this.names.set(name, slot);
    return slot;
  }

  current(): Evaluator {
    return currentOf(this);
  }

  lookup(name: string): number | undefined {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const slot = s.names.get(name);
      if (slot !== undefined) return slot;
    }
    return undefined;
  }

  readsDocument(): void {
    this.tree.documentRead = true;
  }
}
