/**
 * The pieces of a branch role (roles.ts) that are plain functions: its name, its password's SCRAM
 * verifier, its attributes, and dropping it.
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
 * Drops `role` if it exists; false when it still owns something in a database other than the
 * admin's (left for the leftover sweep). DROP OWNED runs in the admin database, where a branch
 * role owns nothing: it only revokes what the role was granted on shared objects.
 */
export async function dropRole(client: pg.ClientBase, role: string): Promise<boolean> {
  const { rowCount } = await client.query('select 1 from pg_roles where rolname = $1', [role]);
  if (!rowCount) return true;
  try {
    await client.query(`DROP OWNED BY ${ident(role)}; DROP ROLE ${ident(role)}`);
    return true;
  } catch (error) {
    if (codeOf(error) === PG.undefinedObject) return true; // dropped meanwhile
    if (codeOf(error) === PG.dependentObjects) return false;
    throw error;
  }
}
