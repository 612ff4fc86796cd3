/**
 * The provider's admin connections: one `pg` pool on the admin URL's database, the catalog reads
 * every operation starts from, cancellable statements, and cross-process advisory locks.
 */
import pg from 'pg';
import { BranchError } from '../provider';
import type { Queryable } from '../schema/index';
import { PG, codeOf, redactionFor, translateError, type Redaction, type SessionInfo } from './errors';
import { parseMeta, type BatonMeta } from './layout';

/** One database as the catalog shows it, with Baton's comment parsed. */
export interface CatalogEntry {
  readonly name: string;
  readonly meta: BatonMeta | null;
  readonly comment: string | null;
  /**
   * The database's content fingerprint from the statistics collector (see snapshot.ts), or null
   * when the server does not count tuple changes (`track_counts = off`).
   */
  readonly fingerprint: string | null;
}

const CATALOG_SQL = `
select d.datname as name, shobj_description(d.oid, 'pg_database') as comment,
  case when current_setting('track_counts')::bool then
    concat_ws(':', d.oid, s.tup_inserted, s.tup_updated, s.tup_deleted, extract(epoch from s.stats_reset)) end as fingerprint
from pg_database d left join pg_stat_database s on s.datid = d.oid
where d.datname = any($1::text[]) or exists (select 1 from unnest($2::text[]) p where starts_with(d.datname, p))`;

const SESSIONS_SQL = `
select coalesce(nullif(application_name, ''), backend_type, '') as application, coalesce(usename, '') as user, coalesce(backend_type, '') as kind,
  coalesce(host(client_addr), case when client_port = -1 then 'a local socket' else 'an unknown address' end) as client,
  coalesce(state, '') as state
from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`;

export class Admin {
  readonly redaction: Redaction;
  /** The admin URL's own database: Baton's sessions live there, so it is never branched. */
  readonly database: string;
  private readonly pool: pg.Pool;

  constructor(
    private readonly adminUrl: string,
    maxConnections: number,
  ) {
    this.redaction = redactionFor(adminUrl);
    let parsed: URL;
    try {
      parsed = new URL(adminUrl);
    } catch {
      throw new BranchError('invalid', `The postgres admin URL ${this.redaction.url} is not a URL; pass --url postgresql://USER:PASSWORD@HOST:PORT/postgres.`);
    }
    if (!/^postgres(ql)?:$/.test(parsed.protocol)) {
      throw new BranchError(
        'invalid',
        `The postgres admin URL ${this.redaction.url} must start with postgresql://; pass --url postgresql://USER:PASSWORD@HOST:PORT/postgres.`,
      );
    }
    this.database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
    this.pool = new pg.Pool({
      connectionString: adminUrl,
      max: maxConnections,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 10_000,
      application_name: 'baton',
    });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
  }

  /** A URL for `database` with the admin URL's credentials and options. Contains the password. */
  urlFor(database: string): string {
    const url = new URL(this.adminUrl);
    url.pathname = `/${encodeURIComponent(database)}`;
    return url.toString();
  }

  /**
   * A session of the admin inside `database` (a branch, a pool entry), with only pg_catalog on the
   * search path: a branch's role owns its schemas and could put a function there that an unqualified
   * call would pick, and run as the admin.
   */
  clientFor(database: string, application: string): pg.Client {
    const client = new pg.Client({
      connectionString: this.urlFor(database),
      connectionTimeoutMillis: 10_000,
      application_name: application,
      options: '-c search_path=pg_catalog,pg_temp',
    });
    // A session ended by the server (a delete, a reset) must not crash the process.
    client.on('error', () => undefined);
    return client;
  }

  async connect(what: string): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw translateError(error, what, this.redaction);
    }
  }

  async withClient<T>(what: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connect(what);
    let broken = false;
    try {
      return await work(client);
    } catch (error) {
      broken = codeOf(error) === undefined && !(error instanceof BranchError);
      throw translateError(error, what, this.redaction);
    } finally {
      client.release(broken);
    }
  }

  /** Rows for the named databases and every database whose name starts with one of `prefixes`. */
  async catalog(client: pg.ClientBase, names: readonly string[], prefixes: readonly string[] = []): Promise<CatalogEntry[]> {
    const { rows } = await client.query<{ name: string; comment: string | null; fingerprint: string | null }>(CATALOG_SQL, [names, prefixes]);
    return rows.map((row) => ({ ...row, meta: parseMeta(row.comment) }));
  }

  async sessions(client: pg.ClientBase, database: string): Promise<SessionInfo[]> {
    const { rows } = await client.query<SessionInfo>(SESSIONS_SQL, [database]);
    return rows;
  }

  /** Runs `sql`; when `signal` aborts, the server cancels it (CREATE DATABASE then leaves nothing). */
  async run(client: pg.ClientBase, sql: string, signal?: AbortSignal): Promise<pg.QueryResult> {
    if (!signal) return client.query(sql);
    if (signal.aborted) throw new BranchError('cancelled', 'The operation was cancelled before it started; nothing was made.');
    const pid = (client as unknown as { processID: number | null }).processID;
    const cancel = () => void this.cancel(pid);
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await client.query(sql);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** Asks the server to cancel whatever the session `pid` runs now; harmless when it runs nothing. */
  async cancel(pid: number | null): Promise<void> {
    if (pid === null) return;
    // Its own connection: the pool may be exhausted by the very statements being cancelled.
    const client = new pg.Client({ connectionString: this.adminUrl, connectionTimeoutMillis: 10_000, application_name: 'baton' });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select pg_cancel_backend($1)', [pid]);
    } catch {
      // Unreachable now: the statement ends with its session anyway.
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * A session-level advisory lock, taken without waiting: the client holding it on success, else
   * null. Locks are per database, and every Baton process uses the admin URL's database.
   */
  async tryLock(key: string, what: string): Promise<pg.PoolClient | null> {
    const client = await this.connect(what);
    try {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [key]);
      if (rows[0]?.locked) return client;
      client.release();
      return null;
    } catch (error) {
      client.release(true);
      throw translateError(error, what, this.redaction);
    }
  }

  /** Releases the lock and the client; a client that cannot unlock is discarded (its session ends, so does the lock). */
  async unlock(client: pg.PoolClient, key: string): Promise<void> {
    try {
      await client.query('select pg_advisory_unlock(hashtext($1))', [key]);
      client.release();
    } catch {
      client.release(true);
    }
  }

  /** Best effort (a role may not end other roles' sessions): DROP DATABASE … WITH (FORCE) then says why. */
  async terminateSessions(client: pg.ClientBase, databases: readonly string[]): Promise<void> {
    await client
      .query('select pg_terminate_backend(pid) from pg_stat_activity where datname = any($1::text[]) and pid <> pg_backend_pid()', [databases])
      .catch(() => undefined);
  }

  /** Drops a database if it is there; `force` ends its sessions first. */
  async drop(client: pg.ClientBase, database: string, force = false): Promise<void> {
    const name = pg.escapeIdentifier(database);
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name}${force ? ' WITH (FORCE)' : ''}`);
    } catch (error) {
      if (codeOf(error) !== PG.undefinedDatabase) throw error;
    }
  }

  /**
   * Drops a branch's database for good (a delete, a reset's swap, gc): a template flag someone set
   * is cleared first (DROP DATABASE refuses a template), its sessions are ended, and afterwards it
   * is looked for again by its oid, so a rename racing the drop is caught too. When it is still
   * there, throws saying so and what to do: a delete never reports a database gone that is not.
   */
  async remove(client: pg.ClientBase, database: string): Promise<void> {
    const { rows } = await client.query<{ oid: string }>('select oid::text as oid from pg_database where datname = $1', [database]);
    const oid = rows[0]?.oid;
    if (oid === undefined) return;
    try {
      await client.query(`ALTER DATABASE ${pg.escapeIdentifier(database)} IS_TEMPLATE false`);
    } catch (error) {
      if (codeOf(error) !== PG.undefinedDatabase) throw error;
    }
    await this.terminateSessions(client, [database]);
    await this.drop(client, database, true);
    const left = await client.query<{ name: string }>('select datname as name from pg_database where oid = $1::oid', [oid]);
    const now = left.rows[0]?.name;
    if (now === undefined) return;
    const name = pg.escapeIdentifier(now);
    throw new BranchError(
      'failed',
      `The database "${database}"${now === database ? '' : ` (named "${now}" now)`} is still on ${this.redaction.url} after Baton dropped it; nothing else of the branch was removed. ` +
        `As a superuser, run ALTER DATABASE ${name} IS_TEMPLATE false; DROP DATABASE ${name} WITH (FORCE); then delete the branch again.`,
    );
  }

  /**
   * Drops databases in parallel, each on its own connection: every DROP DATABASE waits for a
   * checkpoint (PG15), and concurrent requests share one instead of queuing for one each. Forced:
   * these are Baton's helpers, and only the admin connects to one (a pool entry being prepared).
   */
  async dropMany(databases: readonly string[], what: string): Promise<void> {
    await Promise.all(databases.map((database) => this.withClient(what, (client) => this.drop(client, database, true))));
  }

  async end(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** A client as the schema reader (schema/) queries it. */
export function asQueryable(client: pg.Client): Queryable {
  return {
    query: async <R>(sql: string, params?: unknown[]) => {
      const result = await client.query(sql, params);
      return { rows: result.rows as R[] };
    },
  };
}
