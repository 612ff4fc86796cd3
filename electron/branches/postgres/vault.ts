/**
 * Where the passwords of the branch roles (roles.ts) are kept: a table in a database of its own,
 * `baton_vault_<hash of the admin user>`, made by the admin, with CONNECT revoked from PUBLIC, so
 * only that admin (and superusers) can read it; two admin users sharing a server each get theirs. The server is the one place every Baton process using this admin URL
 * sees (the CLI, the app, CI), and whoever can read the vault could already do anything with the
 * admin URL. A password never leaves this module except inside a connection URL; it is never
 * logged, put in an error, or written to a database comment, the ledger or a record.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Admin } from './admin';
import { PG, codeOf, translateError } from './errors';
import { ident, literal } from './layout';
import { closeToPublic } from './reach';

/** The vault database of admin user `user`. */
export const vaultName = (user: string): string => `baton_vault_${createHash('sha256').update(user).digest('hex').slice(0, 10)}`;

const TABLE_SQL = `create table if not exists branch_roles (
  role name primary key, branch text not null, password text not null, created_at timestamptz not null default now())`;

/** `duplicate_table`, and the catalog's unique index when two sessions create the table at once. */
const CONCURRENT_CREATE = new Set(['42P07', '23505']);

export interface VaultEntry {
  readonly role: string;
  readonly branch: string;
  readonly createdAt: Date;
}

export class Vault {
  private pool: pg.Pool | null = null;
  private ready: Promise<void> | null = null;

  constructor(private readonly admin: Admin) {}

  /** The stored password of `role`, or null. */
  async password(role: string): Promise<string | null> {
    const { rows } = await this.query<{ password: string }>('select password from branch_roles where role = $1', [role]);
    return rows[0]?.password ?? null;
  }

  /** The stored password of `role`, storing `fresh` first when it has none; `stored` says whether that happened now. */
  async claim(role: string, branch: string, fresh: string): Promise<{ password: string; stored: boolean }> {
    const inserted = await this.query<{ password: string }>(
      'insert into branch_roles (role, branch, password) values ($1, $2, $3) on conflict (role) do nothing returning password',
      [role, branch, fresh],
    );
    if (inserted.rows[0]) return { password: inserted.rows[0].password, stored: true };
    const password = await this.password(role);
    if (password === null) return this.claim(role, branch, fresh); // forgotten meanwhile
    return { password, stored: false };
  }

  async forget(role: string): Promise<void> {
    await this.query('delete from branch_roles where role = $1', [role]);
  }

  async entries(): Promise<VaultEntry[]> {
    const { rows } = await this.query<VaultEntry>('select role, branch, created_at as "createdAt" from branch_roles order by role');
    return rows;
  }

  /** Whether this admin has a vault already (without making one). */
  async exists(): Promise<boolean> {
    if (this.pool) return true;
    return this.admin.withClient('looking for the vault of the branch roles', async (client) => Boolean((await this.find(client)).found));
  }

  async end(): Promise<void> {
    await this.pool?.end().catch(() => undefined);
    this.pool = null;
    this.ready = null;
  }

  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    await this.ensure();
    try {
      return await (this.pool as pg.Pool).query<R>(sql, params);
    } catch (error) {
      throw translateError(error, "reading the branch roles' passwords", this.admin.redaction);
    }
  }

  /** Makes the vault database and its table on first use; idempotent and safe across processes. */
  ensure(): Promise<void> {
    this.ready ??= this.make().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async make(): Promise<void> {
    const database = await this.admin.withClient('making the vault of the branch roles', async (client) => {
      const { name, found } = await this.find(client);
      if (!found) await createVault(client, name);
      // Looked at every time: a process that crashed between the two statements left it open.
      await closeToPublic(client, name);
      return name;
    });
    const pool = new pg.Pool({
      connectionString: this.admin.urlFor(database),
      max: 2,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 10_000,
      application_name: 'baton',
      // A password lost to a crash right after it was stored is replaced on the branch's next use (roles.ts).
      options: '-c synchronous_commit=off',
    });
    pool.on('error', () => undefined);
    try {
      await pool.query(TABLE_SQL);
      await pool.query('revoke all on branch_roles from public');
    } catch (error) {
      if (!CONCURRENT_CREATE.has(codeOf(error) ?? '')) {
        await pool.end().catch(() => undefined);
        throw translateError(error, 'making the vault of the branch roles', this.admin.redaction);
      }
    }
    this.pool = pool;
  }

  private async find(client: pg.ClientBase): Promise<{ name: string; found: boolean }> {
    const { rows } = await client.query<{ user: string }>('select current_user as user');
    const name = vaultName(rows[0]?.user ?? '');
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    return { name, found: Boolean(rowCount) };
  }
}

async function createVault(client: pg.ClientBase, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.query(`CREATE DATABASE ${ident(name)}`);
      break;
    } catch (error) {
      if (codeOf(error) === PG.duplicateDatabase) return;
      // Someone is connected to template1 (CREATE DATABASE copies it): wait a moment.
      if (codeOf(error) !== PG.objectInUse || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
  const comment = 'Baton: the passwords of the branch roles (only the admin may connect). Dropping it makes Baton set new ones.';
  await client.query(`COMMENT ON DATABASE ${ident(name)} IS ${literal(comment)}`);
}
