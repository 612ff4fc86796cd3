/**
 * Least privilege: every branch the postgres provider makes gets a LOGIN role of its own, and the
 * URL handed out for the branch (test runs, agents, `baton branch url`) logs in as that role, never
 * as the admin. The role owns what is in the branch's database (the `public` schema included), and
 * is granted CONNECT, TEMPORARY and CREATE on the database, which stays the admin's (issue 31: an
 * owner could make it a template, set what Baton's sessions start with, rewrite its comment; see
 * role-sql.ts grantDatabase). Nothing else: NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION
 * NOBYPASSRLS, a member of no role, and with CONNECT taken from PUBLIC on every database Baton
 * decides about (reach.ts). Its password is random (crypto.randomBytes), sent to the server only as
 * a SCRAM-SHA-256 verifier (never in statement text the server could log) and kept in the vault
 * (vault.ts). The role is named after the branch, not the database it is in at the moment, so a
 * reset's replacement (`baton_tmp_…`) is built for the same role and its URLs keep working.
 *
 * Roots Baton adopted (`branches.root`, `baton branch adopt`) are someone else's database: Baton
 * gives them no role and changes no owner there; their URL stays the admin's. It does close them
 * to branch roles (reach.ts closeAdoptedRoot).
 */
import type pg from 'pg';
import { BranchError } from '../provider';
import type { Admin } from './admin';
import { PG, codeOf, translateError } from './errors';
import { ident, isPoolEntryName, literal } from './layout';
import { handOver, handOverCopy, openAsAdmin, transferOwnership } from './ownership';
import { dropPlaceholders, preparePoolEntry } from './pool-owner';
import { closeAdoptedRoot, closeToPublic, copyGrants } from './reach';
import { ROLE_ATTRIBUTES, databasesHolding, dropRole, grantDatabase, newPassword, reclaimDatabase, roleName, scramVerifier } from './role-sql';
import { Vault } from './vault';

export { roleName } from './role-sql';

/** Who has a database: the admin (current_user), its owner, the roles granted CONNECT on it; and whether `role` exists. */
interface Access {
  readonly admin: string;
  readonly roleExists: boolean;
  readonly owner: string | null;
  readonly granted: readonly string[];
}

const ACCESS_SQL = `
select current_user::text as admin, exists (select 1 from pg_roles where rolname = $2) as "roleExists",
  (select pg_get_userbyid(datdba)::text from pg_database where datname = $1) as owner,
  array(select pg_get_userbyid(a.grantee)::text from pg_database d cross join lateral aclexplode(d.datacl) a
    where d.datname = $1 and a.privilege_type = 'CONNECT' and a.grantee <> 0) as granted`;

/** `role` was given the database, and everything in it (the grant comes last, in the same transaction). */
const handedTo = (access: Access, role: string): boolean => access.granted.includes(role) && access.owner !== role;
/** `role` has the database somehow: given it, or owning it as Baton before issue 31 left it. */
const holds = (access: Access, role: string): boolean => access.granted.includes(role) || access.owner === role;

export class BranchRoles {
  /** Said by the provider's warnings(), per database: it could not be closed to branch roles (reach.ts). */
  private readonly said = new Map<string, string>();
  private readonly vault: Vault;
  private ready: Promise<{ superuser: boolean }> | null = null;
  /** Per snapshot, the objects its copies hand over (ownership.ts handOverCopy). */
  private readonly plans = new Map<string, readonly string[]>();

  constructor(private readonly admin: Admin) {
    this.vault = new Vault(admin);
  }

  /**
   * Makes `branch`'s role (or reuses it: a reset, a retry) and gives it `database` with everything
   * in it. Returns the role's URL for `database`. Runs before anyone else gets the database. A
   * warm pool entry owned by its placeholder (pool-owner.ts) only has the placeholder renamed.
   * `copyOf`: the snapshot `database` was just copied from, when it was (no one has used it yet).
   */
  async provision(branch: string, database: string, copyOf: string | null = null, attempt = 1): Promise<string> {
    const { superuser } = await this.setup();
    const role = roleName(branch);
    const fresh = newPassword();
    const what = `giving "${branch}" its own role`;
    // The password and its verifier are worked out while the catalog is read (and the copy connected to).
    const secrets = Promise.all([this.vault.claim(role, branch, fresh), scramVerifier(fresh)]).then(async ([{ password, stored }, verifier]) => ({
      password,
      stored,
      verifier: password === fresh ? verifier : await scramVerifier(password),
    }));
    secrets.catch(() => undefined); // awaited below on every path
    const access = await this.access(database, role, what);
    const exists = access.roleExists;
    const pooled = access.granted.find(isPoolEntryName) ?? null;
    if (pooled && access.owner === access.admin && !exists) {
      const { password, verifier } = await secrets;
      // Not waiting for the WAL flush halves a warm create; a crash losing it leaves the placeholder, renamed on the next use.
      const rename = `SET LOCAL synchronous_commit = off; ALTER ROLE ${ident(pooled)} RENAME TO ${ident(role)}; ALTER ROLE ${ident(role)} ${ROLE_ATTRIBUTES} PASSWORD ${literal(verifier)}`;
      try {
        await this.admin.withClient(what, (client) => client.query(rename));
        return this.url(database, role, password);
      } catch (error) {
        // Another process renamed it first (a connectionUrl racing this create): look again.
        const code = codeOf(error);
        if (attempt < 3 && (code === PG.undefinedObject || code === PG.duplicateObject)) return this.provision(branch, database, copyOf, attempt + 1);
        throw error;
      }
    }
    // Owned by a branch role (or an entry's placeholder) as Baton before issue 31 left it: taken back before anyone goes in.
    if (access.owner !== null && access.owner !== access.admin) await this.admin.withClient(what, (client) => client.query(reclaimDatabase(database)));
    const password = await this.giveDatabase(branch, database, role, secrets, { exists, superuser, copyOf });
    const placeholders = [...new Set([access.owner ?? '', ...access.granted])].filter(isPoolEntryName);
    if (placeholders.length > 0) await dropPlaceholders(this.admin, placeholders);
    return this.url(database, role, password);
  }

  /**
   * One session inside `database`, one transaction: the role made (or its password set again, and
   * the session defaults it set for itself dropped, so a reset mends what `ALTER ROLE CURRENT_USER
   * SET …` broke), PUBLIC's CONNECT revoked, every object handed over, and last the grant on the
   * database (having it is what says the hand-over is complete: connectionUrl checks it). The
   * session is opened while the password is still being worked out. When making the role fails
   * (another process made it, or the admin may not), it is made on its own, which says why, and the
   * rest runs again.
   */
  private async giveDatabase(
    branch: string,
    database: string,
    role: string,
    secrets: Promise<{ password: string; stored: boolean; verifier: string }>,
    how: { readonly exists: boolean; readonly superuser: boolean; readonly copyOf: string | null },
  ): Promise<string> {
    const { exists, superuser, copyOf } = how;
    const give = (parts: { before: string; after: string }) => (copyOf ? handOverCopy(client, role, copyOf, this.plans, parts) : handOver(client, role, parts));
    const [session, worked] = await Promise.allSettled([openAsAdmin(this.admin, database), secrets]);
    if (worked.status === 'rejected') {
      if (session.status === 'fulfilled') await session.value.end().catch(() => undefined);
      throw worked.reason;
    }
    if (session.status === 'rejected') throw session.reason;
    const client = session.value;
    const { password, stored, verifier } = worked.value;
    const after = grantDatabase(database, role);
    const revoke = `REVOKE ALL ON DATABASE ${ident(database)} FROM PUBLIC;`;
    const attributes = `${ROLE_ATTRIBUTES} PASSWORD ${literal(verifier)}`;
    const make = !exists
      ? `CREATE ROLE ${ident(role)} ${attributes};${superuser ? '' : ` GRANT ${ident(role)} TO CURRENT_USER;`}`
      : stored
        ? `ALTER ROLE ${ident(role)} ${attributes};`
        : '';
    const defaults = exists ? `ALTER ROLE ${ident(role)} RESET ALL;` : '';
    try {
      try {
        await give({ before: `${make} ${defaults} ${revoke}`, after });
      } catch (error) {
        if (!make) throw error;
        await this.admin.withClient(`giving "${branch}" its own role`, (admin) => this.setRole(admin, role, verifier, false, superuser));
        await give({ before: revoke, after });
      }
    } catch (error) {
      throw translateError(error, `handing the objects in "${database}" to the role of "${branch}"`, this.admin.redaction);
    } finally {
      await client.end().catch(() => undefined);
    }
    return password;
  }

  /**
   * Readies `database` (the branch itself, or a reset's replacement) for `branch` and returns the
   * URL its preparation runs with. `adopted` comes from the branch's comment, which only the admin
   * can write now; a branch role that owns its database (as Baton before issue 31 left it) could
   * have written it, so it counts only while the role has nothing of the database (an adopted root
   * has no role).
   */
  async prepareFor(branch: string, database: string, adopted: boolean, copyOf: string | null = null): Promise<string> {
    const role = roleName(branch);
    if (adopted && !holds(await this.access(branch, role, `reading who has "${branch}"`), role)) return this.keepOwner(branch, database);
    return this.provision(branch, database, copyOf);
  }

  /** Closes the adopted root `root` to branch roles (reach.ts), or remembers the warning saying why it could not. */
  async closeRoot(client: pg.ClientBase, root: string): Promise<void> {
    this.warn(root, await closeAdoptedRoot(client, root));
  }

  /** What could not be closed to branch roles, and what to run about it (the provider's warnings()). */
  warnings(): string[] {
    return [...this.said.values()];
  }

  /** In the background, for the warm pool: `entry` owned by a placeholder role, ready to be renamed. */
  async preparePoolEntry(entry: string): Promise<void> {
    const ready = await this.setup().catch(() => null);
    if (ready) await preparePoolEntry(this.admin, entry, ready.superuser);
  }

  /** The placeholder roles of pool entries just dropped. */
  dropPlaceholders(entries: readonly string[]): Promise<void> {
    return dropPlaceholders(this.admin, entries.filter(isPoolEntryName));
  }

  /**
   * The URL of `branch` as its role. An adopted root's is the admin's (see prepareFor for why the
   * comment alone is not trusted); a branch made before roles existed gets its role now.
   */
  async connectionUrl(branch: string, adopted: boolean): Promise<string> {
    const role = roleName(branch);
    const access = await this.access(branch, role, `finding the role of "${branch}"`);
    if (handedTo(access, role)) {
      const password = await this.vault.password(role);
      if (password) return this.url(branch, role, password);
    } else if (adopted && !holds(access, role)) {
      return this.admin.urlFor(branch);
    }
    // Made before roles, or its role owns it (Baton before issue 31): given to its role now, the database taken back.
    return this.provision(branch, branch);
  }

  /**
   * A reset of an adopted root: what `database` holds goes to the owner of `branch`'s database, and
   * whoever may connect to `branch` may connect to it too; no role is made.
   */
  private async keepOwner(branch: string, database: string): Promise<string> {
    const { owner } = await this.access(branch, '', `reading the owner of "${branch}"`);
    if (owner) await transferOwnership(this.admin, database, owner);
    await this.admin.withClient(`giving "${database}" the grants of "${branch}"`, (client) => copyGrants(client, branch, database));
    return this.admin.urlFor(database);
  }

  private access(database: string, role: string, what: string): Promise<Access> {
    return this.admin.withClient(what, async (client) => {
      const { rows } = await client.query<Access>(ACCESS_SQL, [database, role]);
      return rows[0] ?? { admin: '', roleExists: false, owner: null, granted: [] };
    });
  }

  /**
   * Drops `branch`'s role once its database is gone (and its password). A role that still owns
   * something elsewhere (a late warm-pool copy) is left for the leftover sweep, unable to log in: false.
   */
  async drop(branch: string): Promise<boolean> {
    const role = roleName(branch);
    const dropped = await this.admin.withClient(`dropping the role of "${branch}"`, (client) => dropRole(client, role));
    if (dropped && (await this.hasVault())) await this.vault.forget(role);
    return dropped;
  }

  /** Why `branch`'s role outlived its deleted database, for the delete to say: where it still owns objects, and what to do. */
  async outlived(branch: string): Promise<BranchError> {
    const role = roleName(branch);
    const where = await this.admin.withClient(`looking for what the role of "${branch}" owns`, (client) => databasesHolding(client, role));
    const listed = where.length > 0 ? where.map((name) => `"${name}"`).join(', ') : 'another database';
    return new BranchError(
      'failed',
      `Deleted the database "${branch}", but its role "${role}" still owns objects in ${listed}, so the role was kept (it can no longer log in). ` +
        `\`baton branch gc\` drops it once ${where.length === 1 ? 'that database is' : 'those are'} gone; or, as the admin, run DROP OWNED BY ${ident(role)} in each of them, then DROP ROLE ${ident(role)}.`,
    );
  }

  /** Roles whose branch database is gone (a delete that crashed halfway), stored before `cutoff`: dropped unless `dryRun`. */
  async leftovers(cutoff: number, dryRun: boolean): Promise<string[]> {
    if (!(await this.hasVault())) return [];
    const entries = (await this.vault.entries()).filter((entry) => entry.createdAt.getTime() < cutoff);
    const names = entries.map((entry) => entry.branch);
    const live = await this.admin.withClient('looking for leftover roles', async (client) => {
      // A role that owns a database (Baton before issue 31) or is granted one is not left over.
      const { rows } = await client.query<{ name: string }>(
        `select datname as name from pg_database where datname = any($1::text[]) union select r.rolname from pg_roles r join pg_database d on d.datdba = r.oid
         union select pg_get_userbyid(a.grantee) from pg_database d cross join lateral aclexplode(d.datacl) a where a.grantee <> 0`,
        [names],
      );
      return new Set(rows.map((row) => row.name));
    });
    const gone = entries.filter((entry) => !live.has(entry.branch) && !live.has(entry.role));
    const out: string[] = [];
    for (const entry of gone) if (dryRun || (await this.drop(entry.branch))) out.push(`role ${entry.role}`);
    return out;
  }

  async end(): Promise<void> {
    await this.vault.end();
  }

  /** Creates the role, or sets its attributes and password again (the vault lost it, or another process made it first). */
  private async setRole(client: pg.ClientBase, role: string, verifier: string, exists: boolean, superuser: boolean): Promise<void> {
    const attributes = `${ROLE_ATTRIBUTES} PASSWORD ${literal(verifier)}`;
    try {
      if (!exists) {
        await client.query(`CREATE ROLE ${ident(role)} ${attributes}`);
        // A non-superuser admin (CREATEDB CREATEROLE) must be a member to hand the role a database.
        if (!superuser) await client.query(`GRANT ${ident(role)} TO CURRENT_USER`);
        return;
      }
    } catch (error) {
      if (codeOf(error) === PG.insufficientPrivilege)
        throw new BranchError(
          'auth',
          `The user in ${this.admin.redaction.url} may not create roles. Baton gives every branch a login role of its own: give that user CREATEROLE as well as CREATEDB (ALTER ROLE … CREATEROLE), or use a superuser in --url.`,
        );
      if (codeOf(error) !== PG.duplicateObject) throw error;
    }
    await client.query(`ALTER ROLE ${ident(role)} ${attributes}`);
  }

  private url(database: string, role: string, password: string): string {
    const url = new URL(this.admin.urlFor(database));
    url.username = encodeURIComponent(role);
    url.password = password;
    for (const key of ['user', 'password']) url.searchParams.delete(key);
    return url.toString();
  }

  private hasVault(): Promise<boolean> {
    return this.ready ? Promise.resolve(true) : this.vault.exists();
  }

  /** Once per provider: the vault, and the admin database and template1 closed to PUBLIC (so to every branch role). */
  private setup(): Promise<{ superuser: boolean }> {
    this.ready ??= this.prepare().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async prepare(): Promise<{ superuser: boolean }> {
    await this.vault.ensure();
    return this.admin.withClient('preparing the branch roles', async (client) => {
      const { rows } = await client.query<{ superuser: boolean }>('select rolsuper as superuser from pg_roles where rolname = current_user');
      for (const database of new Set([this.admin.database, 'template1'])) this.warn(database, await closeToPublic(client, database));
      return { superuser: rows[0]?.superuser === true };
    });
  }

  private warn(database: string, warning: string | null): void {
    if (warning) this.said.set(database, warning);
    else this.said.delete(database);
  }
}
