/**
 * Which databases a branch role (roles.ts) can reach besides its own. Postgres gives PUBLIC
 * CONNECT on every new database and on template1, and any login role may connect wherever PUBLIC
 * may: once connected it reads what is granted to PUBLIC there, and its session alone makes the
 * database uncopyable (a snapshot of an adopted root then fails with "1 other session is
 * connected"). So Baton takes PUBLIC's CONNECT away wherever it decides: its branches and helpers
 * (fork.ts, warm-pool.ts), the vault, the admin URL's database and template1 (at setup), and
 * adopted roots (closeAdoptedRoot). Where the admin URL's user may not (it is not a superuser and
 * does not own the database), the provider warns, naming the statement to run. Other databases on
 * the server are their owners' to close (docs/security.md).
 */
import type pg from 'pg';
import { PG, codeOf } from './errors';
import { ident, literal } from './layout';

/** Whether PUBLIC, and so every login role, may connect to `database` now. */
async function isOpen(client: pg.ClientBase, database: string): Promise<boolean> {
  const { rows } = await client.query<{ open: boolean }>(
    `select datallowconn and has_database_privilege('public', oid, 'CONNECT') as open from pg_database where datname = $1`,
    [database],
  );
  return rows[0]?.open === true;
}

/**
 * Runs `sql` (grants, then the revoke): a user who may not gets an error or, from Postgres, only
 * a "no privileges could be revoked" notice; another Baton process changing the same database's
 * privileges at the same moment makes Postgres say "tuple concurrently updated". In every case the
 * caller looks again.
 */
async function tryRun(client: pg.ClientBase, sql: string): Promise<void> {
  await client.query(sql).catch((error: unknown) => {
    const raced = codeOf(error) === PG.internalError && /concurrently updated/.test(error instanceof Error ? error.message : '');
    if (codeOf(error) !== PG.insufficientPrivilege && !raced) throw error;
  });
}

/**
 * Grants on `database`, to each role `grants` selects (columns `name` and `privilege`), one GRANT
 * at a time in one round trip: a role dropped meanwhile (someone else's, on a shared server) is
 * skipped rather than failing the rest.
 */
const grantEach = (database: string, grants: string): string => `
DO $baton$
DECLARE g record;
BEGIN
  FOR g IN ${grants} LOOP
    BEGIN
      EXECUTE format('GRANT %s ON DATABASE %I TO %I', g.privilege, ${literal(database)}, g.name);
    EXCEPTION WHEN undefined_object THEN NULL;
    END;
  END LOOP;
END
$baton$`;

/**
 * Ends the sessions branch roles hold on `database` (every Baton role is named `baton_…`; the
 * admin's own are kept): closing a database keeps no one out who is already in. Best effort, like
 * Admin.terminateSessions: a non-superuser admin may end only its branch roles' sessions.
 */
async function endBranchSessions(client: pg.ClientBase, database: string): Promise<void> {
  await client
    .query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = $1 and starts_with(usename, 'baton_') and usename <> current_user and pid <> pg_backend_pid()`,
      [database],
    )
    .catch(() => undefined);
}

/**
 * Takes PUBLIC's CONNECT on the admin URL's database (the admin keeps it, granted first), on
 * template1, or on the vault. Returns null when the database is closed to PUBLIC afterwards, else
 * the warning.
 */
export async function closeToPublic(client: pg.ClientBase, database: string): Promise<string | null> {
  if (!(await isOpen(client, database))) return null;
  const db = ident(database);
  await tryRun(client, `GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO CURRENT_USER; REVOKE CONNECT, TEMPORARY ON DATABASE ${db} FROM PUBLIC`);
  if (await isOpen(client, database))
    return `Branch roles can still connect to "${database}" (PUBLIC has CONNECT there and the admin URL's user cannot revoke it): as a superuser or its owner, run REVOKE CONNECT ON DATABASE ${db} FROM PUBLIC.`;
  await endBranchSessions(client, database);
  return null;
}

/**
 * Closes an adopted root (`branches.root`, `baton branch adopt`) to branch roles without closing
 * it to anyone else: CONNECT is granted to every login role there is now except Baton's own
 * (`baton_…`) and superusers (who need none), then taken from PUBLIC. Roles made later need a
 * GRANT of their own. Returns null when closed, else the warning naming what the owner must run.
 */
export async function closeAdoptedRoot(client: pg.ClientBase, root: string): Promise<string | null> {
  if (!(await isOpen(client, root))) return null;
  const db = ident(root);
  const logins = `select rolname as name, 'CONNECT, TEMPORARY' as privilege from pg_roles
    where rolcanlogin and not rolsuper and not starts_with(rolname, 'baton_') and rolname <> current_user`;
  await tryRun(
    client,
    `GRANT CONNECT, TEMPORARY ON DATABASE ${db} TO CURRENT_USER; ${grantEach(root, logins)}; REVOKE CONNECT, TEMPORARY ON DATABASE ${db} FROM PUBLIC`,
  );
  if (await isOpen(client, root))
    return (
      `Branch roles can connect to the adopted root "${root}" and read what PUBLIC may read there: PUBLIC has CONNECT on it and the admin URL's user may not revoke it. ` +
      `As its owner (or a superuser), grant CONNECT to each role that uses it (GRANT CONNECT ON DATABASE ${db} TO app_role), then run REVOKE CONNECT ON DATABASE ${db} FROM PUBLIC.`
    );
  await endBranchSessions(client, root);
  return null;
}

/**
 * Gives `replacement` (an adopted root's rollback, built by a reset) the grants the root has, so
 * whoever could connect to the root still can once the two are swapped. PUBLIC's are not copied.
 */
export async function copyGrants(client: pg.ClientBase, root: string, replacement: string): Promise<void> {
  const grants = `select r.rolname as name, a.privilege_type as privilege from pg_database d cross join lateral aclexplode(d.datacl) a
    join pg_roles r on r.oid = a.grantee where d.datname = ${literal(root)}`;
  await tryRun(client, grantEach(replacement, grants));
}
