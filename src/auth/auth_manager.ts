/**
 * The server's side of authentication and authorization: whether access control is on, the
 * users (`admin.system.users`) and custom roles (`admin.system.roles`) in the catalog, and a
 * generation number that every change to them bumps, so each connection's resolved privileges
 * (authorization_session.ts) are recomputed only after a change (mongod's user cache).
 */
import type { Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import type { Catalog } from '../storage/catalog.js';
import type { Collection } from '../storage/collection.js';
import { keyString } from '../storage/values/key_string.js';
import { DecoyCredentials, DEFAULT_ITERATIONS, makeCredentials, makeUserDocument, rolesOf, userDocumentId, type IterationCounts, type UserName } from './credentials.js';
import { privilegeFromDocument } from './privileges.js';
import { builtinRole, resolveRoles, type ResolvedRoles, type RoleDefinition, type RoleName } from './roles.js';
import type { ScramMechanismName } from './scram.js';

/** The database and collections mongod keeps users and roles in. */
export const AUTH_DB = 'admin';
export const USERS_COLLECTION = 'system.users';
export const ROLES_COLLECTION = 'system.roles';

/** How access control starts. */
export interface AuthOptions {
  /** `--auth`: every command but the handshake needs an authenticated user. */
  readonly enabled: boolean;
  /** A root user in admin created at start (`--username/--password`, MAYFLY_ROOT_*). */
  readonly rootUser?: { readonly username: string; readonly password: string };
}

/** Users, roles, and whether they are enforced. */
export class AuthManager {
  readonly enabled: boolean;
  /** Bumped by every change to users or roles (and invalidateUserCache). */
  generation = 0;
  /** Iteration counts of new credentials. */
  iterations: IterationCounts = DEFAULT_ITERATIONS;
  /** Made-up credentials for unknown users. */
  readonly decoys = new DecoyCredentials();
  private readonly catalog: Catalog;
  private readonly now: () => number;

  constructor(catalog: Catalog, now: () => number, options: AuthOptions = { enabled: false }) {
    this.catalog = catalog;
    this.now = now;
    this.enabled = options.enabled;
    // Creating, dropping or renaming admin's users or roles collection (or dropping admin)
    // changes who may do what: the write path's observers say so.
    const touches = (ns: string) => ns === `${AUTH_DB}.${USERS_COLLECTION}` || ns === `${AUTH_DB}.${ROLES_COLLECTION}`;
    const changed = (...namespaces: string[]) => {
      if (namespaces.some(touches)) this.generation++;
    };
    catalog.writes.observers.add({
      onCreateCollection: (e) => changed(e.ns),
      onDropCollection: (e) => changed(e.ns),
      onRenameCollection: (e) => changed(e.from, e.to),
      onDropDatabase: (e) => {
        if (e.db === AUTH_DB) this.generation++;
      },
    });
    const root = options.rootUser;
    if (root) {
      const name = { user: root.username, db: AUTH_DB };
      if (!this.findUser(name)) {
        const mechs: ScramMechanismName[] = ['SCRAM-SHA-1', 'SCRAM-SHA-256'];
        this.insertUser(makeUserDocument(name, makeCredentials(root.username, root.password, mechs, this.iterations), [{ role: 'root', db: AUTH_DB }]));
      }
    }
  }

  private collection(name: string): Collection | undefined {
    return this.catalog.get(AUTH_DB, name);
  }

  private collectionForWrite(name: string): Collection {
    return this.catalog.getOrCreate(AUTH_DB, name).coll;
  }

  /** Every document of `admin.<name>` (users or roles), in storage order. */
  private documents(name: string): Document[] {
    const coll = this.collection(name);
    if (!coll) return [];
    const now = this.now();
    return [...coll.scan(() => now)].map((r) => r.doc);
  }

  /** Replaces the document `id` of `admin.<name>` by `next`; `missing()` when there is none. */
  private replaceDocument(name: string, id: string, next: Document, missing: () => Error): void {
    const coll = this.collection(name);
    const rec = coll?.getById(keyString(id), this.now());
    if (!coll || !rec) throw missing();
    coll.update(rec, next, this.now());
    this.generation++;
  }

  /** Removes the documents of `admin.<name>` that `matches` selects; returns how many. */
  private removeDocuments(name: string, matches: (doc: Document) => boolean): number {
    const coll = this.collection(name);
    if (!coll) return 0;
    const now = this.now();
    const doomed = [...coll.scan(() => now)].filter((r) => matches(r.doc));
    for (const rec of doomed) coll.remove(rec);
    this.generation++;
    return doomed.length;
  }

  /** The stored document of user `name`, if it exists. */
  findUser(name: UserName): Document | undefined {
    return this.collection(USERS_COLLECTION)?.getById(keyString(userDocumentId(name)), this.now())?.doc;
  }

  /** Whether any user exists (the localhost exception closes once one does). */
  hasUsers(): boolean {
    const coll = this.collection(USERS_COLLECTION);
    return coll !== undefined && coll.storedCount > 0;
  }

  /** Every stored user, in storage order. */
  allUsers(): Document[] {
    return this.documents(USERS_COLLECTION);
  }

  /** Stores a new user; 51003 when it exists. */
  insertUser(doc: Document): void {
    const name = { user: String(doc.user), db: String(doc.db) };
    if (this.findUser(name)) throw new CommandError(51003, `User "${name.user}@${name.db}" already exists`);
    this.collectionForWrite(USERS_COLLECTION).insert(doc, this.now());
    this.generation++;
  }

  /** Replaces user `name`'s document by `next`; 11 UserNotFound when it does not exist. */
  replaceUser(name: UserName, next: Document): void {
    this.replaceDocument(USERS_COLLECTION, userDocumentId(name), next, () => userNotFound(name));
  }

  /** Removes the users `matches` selects; returns how many. */
  removeUsers(matches: (doc: Document) => boolean): number {
    return this.removeDocuments(USERS_COLLECTION, matches);
  }

  /** The stored document of custom role `name`, if it exists. */
  findRoleDocument(name: RoleName): Document | undefined {
    return this.collection(ROLES_COLLECTION)?.getById(keyString(`${name.db}.${name.role}`), this.now())?.doc;
  }

  /** Every custom role, in storage order. */
  allRoles(): Document[] {
    return this.documents(ROLES_COLLECTION);
  }

  /** Stores a new custom role; 51002 when it exists. */
  insertRole(doc: Document): void {
    const name = { role: String(doc.role), db: String(doc.db) };
    if (this.findRoleDocument(name)) throw new CommandError(51002, `Role "${name.role}@${name.db}" already exists`);
    this.collectionForWrite(ROLES_COLLECTION).insert(doc, this.now());
    this.generation++;
  }

  /** Replaces custom role `name`'s document; 31 RoleNotFound when it does not exist. */
  replaceRole(name: RoleName, next: Document): void {
    this.replaceDocument(ROLES_COLLECTION, `${name.db}.${name.role}`, next, () => roleNotFound(name));
  }

  /** Removes the custom roles `matches` selects; returns how many. */
  removeRoles(matches: (doc: Document) => boolean): number {
    return this.removeDocuments(ROLES_COLLECTION, matches);
  }

  /** A role, built-in or custom, or undefined. */
  lookupRole(name: RoleName): RoleDefinition | undefined {
    const builtin = builtinRole(name);
    if (builtin) return builtin;
    const doc = this.findRoleDocument(name);
    if (!doc) return undefined;
    return {
      name,
      privileges: Array.isArray(doc.privileges) ? (doc.privileges as Document[]).map(privilegeFromDocument) : [],
      roles: rolesOf(doc),
      isBuiltin: false,
    };
  }

  /** The roles and privileges `roots` grant, through inheritance. */
  resolve(roots: readonly RoleName[]): ResolvedRoles {
    return resolveRoles(roots, (n) => this.lookupRole(n));
  }

  /** Throws 31 RoleNotFound unless every one of `roles` exists. */
  requireRoles(roles: readonly RoleName[]): void {
    for (const r of roles) if (!this.lookupRole(r)) throw new CommandError('RoleNotFound', `Could not find role: ${r.role}@${r.db}`);
  }

  /** invalidateUserCache: every connection resolves its users again. */
  invalidate(): void {
    this.generation++;
  }
}

/** 11 UserNotFound for `name`. */
export function userNotFound(name: UserName): CommandError {
  return new CommandError('UserNotFound', `User '${name.user}@${name.db}' not found`);
}

/** 31 RoleNotFound for `name`. */
export function roleNotFound(name: RoleName): CommandError {
  return new CommandError('RoleNotFound', `Role '${name.role}@${name.db}' not found`);
}
