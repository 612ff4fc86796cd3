/**
 * Least privilege: every branch the postgres provider makes gets a LOGIN role of its own, and the
 * URL handed out for the branch (test runs, agents, `baton branch url`) logs in as that role, never
 * as the admin. The role owns the branch's database and what is in it, and nothing else:
 * NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS, with CONNECT revoked from PUBLIC
 * on the branch databases (so other branches' roles cannot connect; the admin keeps CONNECT) and on
 * the admin URL's own database. Its password is random (crypto.randomBytes), sent to the server
 * only as a SCRAM-SHA-256 verifier (never in statement text the server could log) and kept in the
 * vault (vault.ts). The role is named after the branch, not the database it is in at the moment, so
 * a reset's replacement (`baton_tmp_…`) is built for the same role and its URLs keep working.
 *
 * Roots Baton adopted (`branches.root`, `baton branch adopt`) are someone else's database: Baton
 * gives them no role and changes no owner or privilege there; their URL stays the admin's.
 */
import type pg from 'pg';
import { BranchError } from '../provider';
import type { Admin } from './admin';
import { PG, codeOf, translateError } from './errors';
import { ident, isPoolEntryName, literal } from './layout';
import { handOver, handOverCopy, openAsAdmin, transferOwnership } from './ownership';
import { dropPlaceholders, preparePoolEntry } from './pool-owner';
import { ROLE_ATTRIBUTES, dropRole, newPassword, roleName, scramVerifier } from './role-sql';
import { Vault } from './vault';

export { roleName } from './role-sql';

export class BranchRoles {
  /** Said by the provider's warnings(): the admin database could not be closed to branch roles. */
  warning: string | null = null;
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
    const { exists, owner } = await this.admin.withClient(what, async (client) => {
      const { rows } = await client.query<{ exists: boolean; owner: string | null }>(
        `select exists (select 1 from pg_roles where rolname = $1) as exists,
          (select r.rolname from pg_database d join pg_roles r on r.oid = d.datdba where d.datname = $2) as owner`,
        [role, database],
      );
      return rows[0] ?? { exists: false, owner: null };
    });
    const pooled = owner !== null && isPoolEntryName(owner) ? owner : null;
    if (pooled && !exists) {
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
    const password = await this.giveDatabase(branch, database, role, secrets, { exists, superuser, copyOf });
    if (pooled) await dropPlaceholders(this.admin, [pooled]);
    return this.url(database, role, password);
  }

  /**
   * One session inside `database`, one transaction: the role made (or its password set again),
   * PUBLIC's CONNECT revoked, every object handed over, and last the database itself (owning it
   * is what says the hand-over is complete: connectionUrl checks it). The session is opened while
   * the password is still being worked out. When making the role fails (another process made it,
   * or the admin may not), it is made on its own, which says why, and the rest runs again.
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
    const db = ident(database);
    const after = `ALTER DATABASE ${db} OWNER TO ${ident(role)}; GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO CURRENT_USER;`;
    const revoke = `REVOKE ALL ON DATABASE ${db} FROM PUBLIC;`;
    const attributes = `${ROLE_ATTRIBUTES} PASSWORD ${literal(verifier)}`;
    const make = !exists
      ? `CREATE ROLE ${ident(role)} ${attributes};${superuser ? '' : ` GRANT ${ident(role)} TO CURRENT_USER;`}`
      : stored
        ? `ALTER ROLE ${ident(role)} ${attributes};`
        : '';
    try {
      try {
        await give({ before: `${make} ${revoke}`, after });
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
   * URL its preparation runs with. `adopted` comes from the branch's comment, which its role can
   * write: it counts only while the role does not own the database (an adopted root has no role).
   */
  async prepareFor(branch: string, database: string, adopted: boolean, copyOf: string | null = null): Promise<string> {
    if (adopted && (await this.ownerOf(branch)) !== roleName(branch)) return this.keepOwner(branch, database);
    return this.provision(branch, database, copyOf);
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
    const owner = await this.ownerOf(branch);
    if (owner === role) {
      const password = await this.vault.password(role);
      if (password) return this.url(branch, role, password);
    } else if (adopted) {
      return this.admin.urlFor(branch);
    }
    return this.provision(branch, branch);
  }

  /** A reset of an adopted root: what `database` holds goes to the owner of `branch`'s database; no role is made. */
  private async keepOwner(branch: string, database: string): Promise<string> {
    const owner = await this.ownerOf(branch);
    if (owner) await transferOwnership(this.admin, database, owner);
    return this.admin.urlFor(database);
  }

  private ownerOf(database: string): Promise<string | null> {
    return this.admin.withClient(`reading the owner of "${database}"`, async (client) => {
      const { rows } = await client.query<{ owner: string }>('select pg_get_userbyid(datdba) as owner from pg_database where datname = $1', [database]);
      return rows[0]?.owner ?? null;
    });
  }

  /**
   * Drops `branch`'s role once its database is gone (and its password). A role that still owns
   * something elsewhere (a late warm-pool copy) is left for the leftover sweep: false.
   */
  async drop(branch: string): Promise<boolean> {
    const role = roleName(branch);
    const dropped = await this.admin.withClient(`dropping the role of "${branch}"`, (client) => dropRole(client, role));
    if (dropped && (await this.hasVault())) await this.vault.forget(role);
    return dropped;
  }

  /** Roles whose branch database is gone (a delete that crashed halfway), stored before `cutoff`: dropped unless `dryRun`. */
  async leftovers(cutoff: number, dryRun: boolean): Promise<string[]> {
    if (!(await this.hasVault())) return [];
    const entries = (await this.vault.entries()).filter((entry) => entry.createdAt.getTime() < cutoff);
    const names = entries.map((entry) => entry.branch);
    const live = await this.admin.withClient('looking for leftover roles', async (client) => {
      const { rows } = await client.query<{ name: string }>(
        'select datname as name from pg_database where datname = any($1::text[]) union select r.rolname from pg_roles r join pg_database d on d.datdba = r.oid',
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

  /** Once per provider: the vault, and the admin database closed to PUBLIC (so to every branch role). */
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
      const check = `select r.rolsuper as superuser, has_database_privilege('public', current_database(), 'CONNECT') as open from pg_roles r where r.rolname = current_user`;
      const before = (await client.query<{ superuser: boolean; open: boolean }>(check)).rows[0];
      if (before?.open) {
        const db = ident(this.admin.database);
        await client
          .query(`GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO CURRENT_USER; REVOKE CONNECT, TEMPORARY ON DATABASE ${db} FROM PUBLIC`)
          .catch((error: unknown) => {
            if (codeOf(error) !== PG.insufficientPrivilege) throw error;
          });
        if ((await client.query<{ open: boolean }>(check)).rows[0]?.open) {
          this.warning = `Branch roles can still connect to "${this.admin.database}" (PUBLIC has CONNECT there and the admin URL's user cannot revoke it): as its owner, run REVOKE CONNECT ON DATABASE ${db} FROM PUBLIC.`;
        }
      }
      return { superuser: before?.superuser === true };
    });
  }
}
