/**
 * Handing a database's content to its branch role. A branch is copied from a snapshot, so what
 * it holds (tables, sequences, views, functions, types, schemas…) is owned by whoever owned it in
 * the parent: the parent's role, or the admin. Run inside the new database as the admin, this
 * gives every object outside the system schemas to the branch's role, one ALTER … OWNER TO each.
 * REASSIGN OWNED is not used: it would also hand over the old owner's databases (the parent
 * itself, or every database the admin owns). The `public` schema is handed over too: its owner
 * there is `pg_database_owner`, which is the admin, since the database itself stays the admin's
 * (role-sql.ts grantDatabase), and the branch's migrations create their tables in it. Extension members stay with their extension; serial
 * and identity sequences and indexes follow their table. Kinds not covered (operator classes and
 * families, foreign servers, publications, event triggers) keep their owner.
 *
 * The hand-over is one statement batch on one session, so one round trip and one commit: under
 * load every round trip waits for a CPU and every commit for a WAL flush (issue 17). Callers put
 * what goes with it (making the role, giving it the database) in the same transaction.
 */
import type pg from 'pg';
import type { Admin } from './admin';
import { translateError } from './errors';
import { ident, literal } from './layout';

/**
 * What to hand over: one `ALTER <kind> <object>` per object (` OWNER TO <role>` is appended), for
 * objects not owned by TARGET_OID already (0::oid: every object).
 */
const OBJECTS_SQL = `
WITH ns AS (SELECT oid, nspname, nspowner FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'),
ext AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
SELECT format('ALTER SCHEMA %I', n.nspname) FROM ns n
  WHERE n.nspowner <> TARGET_OID AND ('pg_namespace'::regclass, n.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER %s %I.%I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
    WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'c' THEN 'TYPE' ELSE 'TABLE' END, n.nspname, c.relname)
  FROM pg_class c JOIN ns n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c') AND c.relowner <> TARGET_OID AND ('pg_class'::regclass, c.oid) NOT IN (SELECT * FROM ext)
    AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
      AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
UNION ALL
SELECT format('ALTER ROUTINE %s', p.oid::regprocedure) FROM pg_proc p JOIN ns n ON n.oid = p.pronamespace
  WHERE p.proowner <> TARGET_OID AND ('pg_proc'::regclass, p.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER %s %s', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype)
  FROM pg_type t JOIN ns n ON n.oid = t.typnamespace
  WHERE t.typtype IN ('b', 'd', 'e', 'r', 'm') AND t.typrelid = 0 AND t.typowner <> TARGET_OID
    AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.typarray = t.oid) AND ('pg_type'::regclass, t.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER STATISTICS %I.%I', n.nspname, s.stxname) FROM pg_statistic_ext s JOIN ns n ON n.oid = s.stxnamespace
  WHERE s.stxowner <> TARGET_OID
UNION ALL
SELECT format('ALTER COLLATION %I.%I', n.nspname, o.collname) FROM pg_collation o JOIN ns n ON n.oid = o.collnamespace
  WHERE o.collowner <> TARGET_OID AND ('pg_collation'::regclass, o.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER TEXT SEARCH CONFIGURATION %I.%I', n.nspname, o.cfgname) FROM pg_ts_config o JOIN ns n ON n.oid = o.cfgnamespace
  WHERE o.cfgowner <> TARGET_OID AND ('pg_ts_config'::regclass, o.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER TEXT SEARCH DICTIONARY %I.%I', n.nspname, o.dictname) FROM pg_ts_dict o JOIN ns n ON n.oid = o.dictnamespace
  WHERE o.dictowner <> TARGET_OID AND ('pg_ts_dict'::regclass, o.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER OPERATOR %s', o.oid::regoperator) FROM pg_operator o JOIN ns n ON n.oid = o.oprnamespace
  WHERE o.oprowner <> TARGET_OID AND ('pg_operator'::regclass, o.oid) NOT IN (SELECT * FROM ext)
UNION ALL
SELECT format('ALTER LARGE OBJECT %s', l.oid) FROM pg_largeobject_metadata l WHERE l.lomowner <> TARGET_OID`;

const TRANSFER_SQL = `
DO $baton$
DECLARE
  target name := current_setting('baton.owner');
  target_oid oid := (SELECT oid FROM pg_roles WHERE rolname = current_setting('baton.owner'));
  stmt text;
BEGIN
  FOR stmt IN ${OBJECTS_SQL.replaceAll('TARGET_OID', 'target_oid')}
  LOOP
    EXECUTE stmt || format(' OWNER TO %I', target);
  END LOOP;
END
$baton$`;

/** How long an ALTER waits for a lock (a legacy branch someone is using) before the hand-over fails. */
const LOCK_TIMEOUT = '10s';

/** A connected session of the admin inside `database` (see Admin.clientFor); the caller ends it. */
export async function openAsAdmin(admin: Admin, database: string): Promise<pg.Client> {
  const client = admin.clientFor(database, 'baton');
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw translateError(error, `connecting to "${database}" to hand its objects to its role`, admin.redaction);
  }
}

/**
 * Gives everything in the database `client` is connected to (as the admin) to `owner`, in one
 * transaction with `before` and `after` (statements, each ending in a semicolon). The commit does
 * not wait for its WAL flush: a crash that loses it leaves the database with its old owner, which
 * the branch's next use hands over again (roles.ts connectionUrl).
 */
export async function handOver(client: pg.ClientBase, owner: string, parts: { readonly before?: string; readonly after?: string } = {}): Promise<void> {
  await client.query(
    `SET LOCAL synchronous_commit = off; SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'; SET LOCAL baton.owner = ${literal(owner)}; ` +
      `${parts.before ?? ''} ${TRANSFER_SQL}; ${parts.after ?? ''}`,
  );
}

/** How many snapshots' hand-over lists a provider remembers (the newest ones). */
const MAX_PLANS = 64;

/**
 * handOver for a fresh copy of the frozen snapshot `snapshot` (a cold create or reset; a pool
 * entry). Every copy of a snapshot holds the same objects, so which ones to hand over is read in
 * the first copy only and replayed as plain ALTERs in the later ones (`plans`, one provider's):
 * planning the catalog query in a fresh session of a fresh database is most of the hand-over's
 * time, and what grows most under load. An object already owned by `owner` is altered anyway (a
 * no-op); the set is otherwise the same as handOver's.
 */
export async function handOverCopy(
  client: pg.ClientBase,
  owner: string,
  snapshot: string,
  plans: Map<string, readonly string[]>,
  parts: { readonly before?: string; readonly after?: string } = {},
): Promise<void> {
  let plan = plans.get(snapshot);
  if (!plan) {
    const { rows } = await client.query<[string]>({ text: OBJECTS_SQL.replaceAll('TARGET_OID', '0::oid'), rowMode: 'array' });
    plan = rows.map((row) => row[0]);
    plans.delete(snapshot);
    plans.set(snapshot, plan);
    for (const old of plans.keys()) if (plans.size > MAX_PLANS) plans.delete(old);
  }
  const alters = plan.map((statement) => `${statement} OWNER TO ${ident(owner)};`).join(' ');
  await client.query(`SET LOCAL synchronous_commit = off; SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'; ${parts.before ?? ''} ${alters} ${parts.after ?? ''}`);
}

/** Gives everything in `database` outside the system schemas to `owner` (a role name), as the admin. */
export async function transferOwnership(admin: Admin, database: string, owner: string): Promise<void> {
  const client = await openAsAdmin(admin, database);
  try {
    await handOver(client, owner);
  } catch (error) {
    throw translateError(error, `handing the objects in "${database}" to its role`, admin.redaction);
  } finally {
    await client.end().catch(() => undefined);
  }
}
