/**
 * Server parameters, as `getParameter` / `setParameter` and the command line see them. Each
 * component registers its own parameters (the TTL monitor registers `ttlMonitorSleepSecs`, ...);
 * this module owns only the table and the mongod-compatible validation around it.
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';

/** One server parameter. */
export interface ServerParameter {
  readonly name: string;
  /** Current value, in reply representation. */
  get(): unknown;
  /** Validates and stores a value; throws CommandError (BadValue) when it is refused. */
  set?(value: unknown): void;
  readonly settableAtRuntime: boolean;
  readonly settableAtStartup: boolean;
}

/** The parameters of one server instance. */
export class ParameterTable {
  private readonly byName = new Map<string, ServerParameter>();

  /** Adds a parameter; names are unique. */
  register(param: ServerParameter): void {
    if (this.byName.has(param.name)) throw new Error(`parameter ${param.name} registered twice`);
    this.byName.set(param.name, param);
  }

  /** A constant, read-only parameter. */
  registerConstant(name: string, value: unknown): void {
    this.register({ name, get: () => value, settableAtRuntime: false, settableAtStartup: true });
  }

  /** The parameter called `name`, if any. */
  lookup(name: string): ServerParameter | undefined {
    return this.byName.get(name);
  }

  /** All parameters in name order. */
  all(): ServerParameter[] {
    return [...this.byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Sets a parameter at runtime with mongod's errors (72 unknown, 20 startup-only, 2 bad value). */
  setAtRuntime(name: string, value: unknown): unknown {
    const param = this.byName.get(name);
    if (!param) {
      throw new CommandError(
        'InvalidOptions',
        `attempted to set unrecognized parameter [${name}], use help:true to see options `,
      );
    }
    if (!param.settableAtRuntime || !param.set) {
      throw new CommandError('IllegalOperation', `not allowed to change [${name}] at runtime`);
    }
    const was = param.get();
    param.set(value);
    return was;
  }

  /** The `getParameter` reply fields for `names` (or all when `names` is '*'). */
  describe(names: string[] | '*', showDetails: boolean): Document {
    const out: Document = {};
    const params = names === '*' ? this.all() : names.flatMap((n) => this.byName.get(n) ?? []);
    for (const param of params) {
      out[param.name] = showDetails
        ? {
            value: param.get(),
            settableAtRuntime: param.settableAtRuntime,
            settableAtStartup: param.settableAtStartup,
          }
        : param.get();
    }
    return out;
  }
}
