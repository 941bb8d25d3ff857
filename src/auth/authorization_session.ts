/**
 * One connection's authorization state (mongod's AuthorizationSession): the user it
 * authenticated as, that user's roles and privileges resolved through inheritance (kept until
 * users or roles change: `AuthManager.generation`), and the SASL conversation under way.
 */
import { UUID, type Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import type { AuthManager } from './auth_manager.js';
import { rolesOf, type UserName } from './credentials.js';
import { PrivilegeSet, type Resource } from './privileges.js';
import type { RoleName } from './roles.js';
import type { SaslConversation } from './sasl_conversation.js';

/** What the session knows of its user, resolved. */
interface Resolved {
  readonly generation: number;
  readonly roles: readonly RoleName[];
  readonly privileges: PrivilegeSet;
}

const NOBODY: PrivilegeSet = new PrivilegeSet([]);

/** The authorization state of one connection. */
export class AuthorizationSession {
  /** The authenticated user (mongod allows one per connection), or null. */
  private current: UserName | null = null;
  private resolved: Resolved | null = null;
  /** The SASL conversation under way (saslStart … saslContinue), or null. */
  conversation: SaslConversation | null = null;
  /** The server's users and roles. */
  readonly manager: AuthManager;
  /** The client's UUID (mongod's `Client` uuid, shown by connectionStatus). */
  readonly clientUuid = new UUID();

  constructor(manager: AuthManager) {
    this.manager = manager;
  }

  /** The authenticated user, or null. */
  get user(): UserName | null {
    return this.current;
  }

  /** Marks `name` authenticated (after a successful conversation or X.509). */
  login(name: UserName): void {
    if (this.current && (this.current.user !== name.user || this.current.db !== name.db)) {
      throw new CommandError('Unauthorized', `Each client connection may only be authenticated once. Previously authenticated as: ${this.current.user}@${this.current.db}`);
    }
    this.current = { user: name.user, db: name.db };
    this.resolved = null;
  }

  /** `logout` on `db`: forgets the user when it was authenticated on `db`. */
  logoutDatabase(db: string): void {
    if (this.current?.db === db) {
      this.current = null;
      this.resolved = null;
    }
  }

  /** The user's roles and privileges, resolved again after any change to users or roles. */
  private resolve(): Resolved | null {
    const manager = this.manager;
    if (!this.current) return null;
    if (this.resolved && this.resolved.generation === manager.generation) return this.resolved;
    const doc = manager.findUser(this.current);
    if (!doc) {
      // Dropped while logged in: the connection keeps its name but loses every privilege.
      this.resolved = { generation: manager.generation, roles: [], privileges: NOBODY };
      return this.resolved;
    }
    const direct = rolesOf(doc);
    const all = manager.resolve(direct);
    this.resolved = { generation: manager.generation, roles: all.roles, privileges: new PrivilegeSet(all.privileges) };
    return this.resolved;
  }

  /** Whether the user may do every one of `actions` on `resource`. */
  allows(resource: Resource, actions: readonly string[]): boolean {
    const r = this.resolve();
    return r !== null && r.privileges.allows(resource, actions);
  }

  /** Whether the user holds any privilege on a resource of database `db` (listDatabases' filter). */
  anyOnDatabase(db: string): boolean {
    const r = this.resolve();
    return r !== null && r.privileges.anyOnDatabase(db);
  }

  /** The user's direct roles (as stored), or []. */
  directRoles(): RoleName[] {
    if (!this.current) return [];
    const doc = this.manager.findUser(this.current);
    return doc ? rolesOf(doc) : [];
  }

  /** Every role the user holds, inherited ones included. */
  allRoles(): readonly RoleName[] {
    return this.resolve()?.roles ?? [];
  }

  /** The user's privileges, merged. */
  privileges(): PrivilegeSet {
    return this.resolve()?.privileges ?? NOBODY;
  }

  /** connectionStatus's `authInfo`. */
  authInfo(showPrivileges: boolean): Document {
    const users = this.current ? [{ user: this.current.user, db: this.current.db }] : [];
    const roles = this.directRoles().map((r) => ({ role: r.role, db: r.db }));
    const info: Document = { authenticatedUsers: users, authenticatedUserRoles: roles };
    if (showPrivileges) {
      info.authenticatedUserPrivileges = this.privileges().privileges.map((p) => ({
        resource: p.resource.kind === 'cluster' ? { cluster: true } : p.resource.kind === 'any' ? { anyResource: true } : { db: p.resource.db, collection: p.resource.collection },
        actions: [...p.actions].sort(),
      }));
    }
    return info;
  }
}

/**
 * The hook of certificate (MONGODB-X509) authentication: marks the `$external` user
 * `userName` authenticated on `connection`; its roles are those of `$external.<userName>` in
 * admin.system.users. 11 UserNotFound when no such user exists.
 */
export function authenticateExternal(connection: { readonly auth: AuthorizationSession }, userName: string): UserName {
  const session = connection.auth;
  const name = { user: userName, db: '$external' };
  if (!session.manager.findUser(name)) throw new CommandError('UserNotFound', `Could not find user "${userName}" for db "$external"`);
  session.login(name);
  return name;
}
