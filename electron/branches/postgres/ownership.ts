/**
 * Handing a database's content to its branch role. A branch is copied from a snapshot, so what
 * it holds (tables, sequences, views, functions, types, schemas…) is owned by whoever owned it in
 * the parent: the parent's role, or the admin. Run inside the new database as the admin, this
 * gives every object outside the system schemas to the branch's role, one ALTER … OWNER TO each.
 * REASSIGN OWNED is not used: it would also hand over the old owner's databases (the parent
 * itself, or every database the admin owns). Extension members stay with their extension; serial
 * and identity sequences and indexes follow their table. Kinds not covered (operator classes and
 * families, foreign servers, publications, event triggers) keep their owner.
 */
import type { Admin } from './admin';
import { translateError } from './errors';

const TRANSFER_SQL = `
DO $baton$
DECLARE
  target name := current_setting('baton.owner');
  target_oid oid := (SELECT oid FROM pg_roles WHERE rolname = current_setting('baton.owner'));
  stmt text;
BEGIN
  FOR stmt IN
    WITH ns AS (SELECT oid, nspname, nspowner FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'),
    ext AS (SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
    SELECT format('ALTER SCHEMA %I OWNER TO %I', n.nspname, target) FROM ns n
      WHERE n.nspowner NOT IN (target_oid, 'pg_database_owner'::regrole) AND ('pg_namespace'::regclass, n.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER %s %I.%I OWNER TO %I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
        WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'c' THEN 'TYPE' ELSE 'TABLE' END, n.nspname, c.relname, target)
      FROM pg_class c JOIN ns n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c') AND c.relowner <> target_oid AND ('pg_class'::regclass, c.oid) NOT IN (SELECT * FROM ext)
        AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
          AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
    UNION ALL
    SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, target) FROM pg_proc p JOIN ns n ON n.oid = p.pronamespace
      WHERE p.proowner <> target_oid AND ('pg_proc'::regclass, p.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER %s %s OWNER TO %I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype, target)
      FROM pg_type t JOIN ns n ON n.oid = t.typnamespace
      WHERE t.typtype IN ('b', 'd', 'e', 'r', 'm') AND t.typrelid = 0 AND t.typowner <> target_oid
        AND NOT EXISTS (SELECT 1 FROM pg_type e WHERE e.typarray = t.oid) AND ('pg_type'::regclass, t.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER STATISTICS %I.%I OWNER TO %I', n.nspname, s.stxname, target) FROM pg_statistic_ext s JOIN ns n ON n.oid = s.stxnamespace
      WHERE s.stxowner <> target_oid
    UNION ALL
    SELECT format('ALTER COLLATION %I.%I OWNER TO %I', n.nspname, o.collname, target) FROM pg_collation o JOIN ns n ON n.oid = o.collnamespace
      WHERE o.collowner <> target_oid AND ('pg_collation'::regclass, o.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER TEXT SEARCH CONFIGURATION %I.%I OWNER TO %I', n.nspname, o.cfgname, target) FROM pg_ts_config o JOIN ns n ON n.oid = o.cfgnamespace
      WHERE o.cfgowner <> target_oid AND ('pg_ts_config'::regclass, o.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER TEXT SEARCH DICTIONARY %I.%I OWNER TO %I', n.nspname, o.dictname, target) FROM pg_ts_dict o JOIN ns n ON n.oid = o.dictnamespace
      WHERE o.dictowner <> target_oid AND ('pg_ts_dict'::regclass, o.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER OPERATOR %s OWNER TO %I', o.oid::regoperator, target) FROM pg_operator o JOIN ns n ON n.oid = o.oprnamespace
      WHERE o.oprowner <> target_oid AND ('pg_operator'::regclass, o.oid) NOT IN (SELECT * FROM ext)
    UNION ALL
    SELECT format('ALTER LARGE OBJECT %s OWNER TO %I', l.oid, target) FROM pg_largeobject_metadata l WHERE l.lomowner <> target_oid
  LOOP
    EXECUTE stmt;
  END LOOP;
END
$baton$`;

/** How long an ALTER waits for a lock (a legacy branch someone is using) before the hand-over fails. */
const LOCK_TIMEOUT = '10s';

/** Gives everything in `database` outside the system schemas to `owner` (a role name), as the admin. */
export async function transferOwnership(admin: Admin, database: string, owner: string): Promise<void> {
  const client = admin.clientFor(database, 'baton');
  try {
    await client.connect();
    await client.query(`select set_config('baton.owner', $1, false), set_config('lock_timeout', '${LOCK_TIMEOUT}', false)`, [owner]);
    await client.query(TRANSFER_SQL);
  } catch (error) {
    throw translateError(error, `handing the objects in "${database}" to its role`, admin.redaction);
  } finally {
    await client.end().catch(() => undefined);
  }
}
