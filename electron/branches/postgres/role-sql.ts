/**
 * The pieces of a branch role (roles.ts) that are plain functions: its name, its password's SCRAM
 * verifier, its attributes, what it is granted on its database, and dropping it.
 */
import { createHash, createHmac, pbkdf2, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type pg from 'pg';
import { PG, codeOf } from './errors';
import { ident } from './layout';

const ROLE_PREFIX = 'baton_';
const MAX_IDENTIFIER_BYTES = 63;
const HASH_LENGTH = 10;
const SCRAM_ITERATIONS = 4096;

/** What every branch role is: it may log in, and do nothing beyond what it owns or is granted. */
export const ROLE_ATTRIBUTES = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';

/**
 * What a branch role holds on its database: connecting, temporary tables, and CREATE (new schemas,
 * trusted extensions). Not the database itself: ALTER DATABASE (IS_TEMPLATE, SET, RENAME, OWNER,
 * ALLOW_CONNECTIONS) and COMMENT ON DATABASE need its ownership, which stays with the admin, so a
 * branch role can neither hide its database from a delete, nor change the settings Baton's own
 * sessions there start with, nor rewrite Baton's metadata (the database's comment, layout.ts).
 * The CONNECT grant is also what says a hand-over is complete (roles.ts connectionUrl).
 */
export const grantDatabase = (database: string, role: string): string => `GRANT CONNECT, TEMPORARY, CREATE ON DATABASE ${ident(database)} TO ${ident(role)};`;

/**
 * Takes `database` back from whoever owns it (a branch role, as Baton before issue 31 left it; a
 * warm-pool placeholder of that time) and undoes what an owner could do to it: settings every
 * session there starts with (default_transaction_read_only…), being a template, refusing
 * connections. Runs from the admin's database, before any session is opened inside `database`.
 */
export const reclaimDatabase = (database: string): string => {
  const db = ident(database);
  return `ALTER DATABASE ${db} OWNER TO CURRENT_USER; ALTER DATABASE ${db} RESET ALL; ALTER DATABASE ${db} IS_TEMPLATE false ALLOW_CONNECTIONS true CONNECTION LIMIT -1;`;
};

/**
 * The role of branch `branch`: `baton_<branch>_<hash>`, the branch name cut to fit Postgres's
 * 63-byte limit (on a character boundary) and a hash of the whole name, so names alike once cut
 * still get different roles. Quote it (`ident`) wherever it is used.
 */
export function roleName(branch: string): string {
  const hash = createHash('sha256').update(branch).digest('hex').slice(0, HASH_LENGTH);
  const room = MAX_IDENTIFIER_BYTES - ROLE_PREFIX.length - 1 - HASH_LENGTH;
  let head = branch;
  while (Buffer.byteLength(head, 'utf8') > room) head = [...head].slice(0, -1).join('');
  return `${ROLE_PREFIX}${head}_${hash}`;
}

/** A new random password: 24 bytes from crypto.randomBytes, URL-safe. */
export const newPassword = (): string => randomBytes(24).toString('base64url');

/** The SCRAM-SHA-256 verifier of `password` (RFC 5802/7677, as libpq's PQencryptPasswordConn makes it). */
export async function scramVerifier(password: string): Promise<string> {
  const salt = randomBytes(16);
  const salted = await promisify(pbkdf2)(password.normalize('NFKC'), salt, SCRAM_ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${SCRAM_ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/**
 * Drops `role` if it exists, ending its sessions first (a dropped role's session would otherwise
 * live on). False when it still owns something in a database other than the admin's: it is then
 * left for the leftover sweep, but may no longer log in, so its URL is dead either way. DROP OWNED
 * runs in the admin database, where a branch role owns nothing: it only revokes what the role was
 * granted on shared objects (CONNECT on databases).
 */
export async function dropRole(client: pg.ClientBase, role: string): Promise<boolean> {
  const { rowCount } = await client.query('select 1 from pg_roles where rolname = $1', [role]);
  if (!rowCount) return true;
  await client.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1 and pid <> pg_backend_pid()', [role]).catch(() => undefined);
  try {
    await client.query(`DROP OWNED BY ${ident(role)}; DROP ROLE ${ident(role)}`);
    return true;
  } catch (error) {
    if (codeOf(error) === PG.undefinedObject) return true; // dropped meanwhile
    if (codeOf(error) !== PG.dependentObjects) throw error;
    await client.query(`ALTER ROLE ${ident(role)} NOLOGIN PASSWORD NULL`).catch(() => undefined);
    return false;
  }
}

/** The databases `role` owns, or owns objects in: what keeps DROP ROLE from working. */
export async function databasesHolding(client: pg.ClientBase, role: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `with r as (select oid from pg_roles where rolname = $1)
     select d.datname::text as name from pg_shdepend s join pg_database d on d.oid = s.dbid
       where s.refclassid = 'pg_authid'::regclass and s.refobjid = (select oid from r) and s.deptype = 'o'
     union select datname::text from pg_database where datdba = (select oid from r) order by 1`,
    [role],
  );
  return rows.map((row) => row.name);
}
