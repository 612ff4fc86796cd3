/**
 * Does a parent's snapshot still hold the parent's content? Decides when a snapshot is refreshed.
 *
 * A snapshot is refreshed when the parent has none, when the caller asks (`fresh: true`), or when
 * the parent's content changed since the copy. Content changes are read from the statistics
 * collector's tuple counters (inserted, updated, deleted; catalogs count too, so DDL does), which
 * reads do not move: an app that only reads the parent never forces a refresh. Two levels:
 * - coarse: the parent's row in pg_stat_database (with its oid, so a recreated parent differs),
 *   read from the admin database in the same query as the rest of the catalog: no connection to
 *   the parent, nothing added to a warm create;
 * - content: per-table counters read inside the parent, leaving out pg_statistic. Autovacuum
 *   analyses shared catalogs (pg_database churns with every branch made) from whichever database
 *   it visits, which writes that database's pg_statistic and moves its coarse counters without
 *   any change to its data. Only when the coarse counters moved does Baton connect to the parent to
 *   compare this; if it is unchanged the snapshot stays, and the new coarse counters are recorded.
 * Counters are flushed when a session ends and otherwise about once a second (up to 10 s when
 * idle), so a change by a session still connected may be seen late; the parent is busy then and
 * could not be copied anyway. With `track_counts = off` there are no counters: every fork refreshes.
 */
import type { Admin, CatalogEntry } from './admin';
import { translateError } from './errors';
import { ident, metaLiteral, type SnapshotMeta } from './layout';

/** Sessions Baton opens on a parent only to read counters; they end within milliseconds. */
export const FINGERPRINT_APPLICATION = 'baton-fingerprint';

export interface Snapshot {
  readonly name: string;
  readonly meta: SnapshotMeta;
}

const CONTENT_SQL = `
with stats as (select 'pg_catalog.pg_statistic'::regclass as oid union all select 'pg_catalog.pg_statistic_ext_data'::regclass),
skipped as (select oid from stats union all select c.reltoastrelid from pg_class c join stats using (oid) where c.reltoastrelid <> 0)
select case when current_setting('track_counts')::bool then
  (select oid from pg_database where datname = current_database()) || ':' ||
  md5(coalesce(string_agg(concat_ws(':', s.relid, s.n_tup_ins, s.n_tup_upd, s.n_tup_del), ',' order by s.relid), '')) end as content
from pg_stat_all_tables s join pg_class c on c.oid = s.relid
where not c.relisshared and s.relid not in (select oid from skipped)`;

/** The parent's content fingerprint, read inside it; null when the server keeps no counters. */
export async function contentFingerprint(admin: Admin, database: string): Promise<string | null> {
  const client = admin.clientFor(database, FINGERPRINT_APPLICATION);
  try {
    await client.connect();
    const { rows } = await client.query<{ content: string | null }>(CONTENT_SQL);
    return rows[0]?.content ?? null;
  } catch (error) {
    throw translateError(error, `reading the content counters of "${database}"`, admin.redaction);
  } finally {
    // Resolves once the server has ended the session, so it no longer blocks a copy.
    await client.end().catch(() => undefined);
  }
}

/** True when `snapshot` still holds `parent`'s content (see above); may connect to the parent. */
export async function isCurrent(admin: Admin, snapshot: Snapshot, parent: CatalogEntry): Promise<boolean> {
  const { fingerprint, content } = snapshot.meta;
  if (fingerprint === null || parent.fingerprint === null) return false;
  if (fingerprint === parent.fingerprint) return true;
  // A parent Baton cannot read counters in (no CONNECT right) is simply snapshotted again.
  if (!content || (await contentFingerprint(admin, parent.name).catch(() => null)) !== content) return false;
  // Only statistics moved: record the coarse counters read before the content, so the next fork
  // takes the fast path again (a change after that read shows up as a coarse change next time).
  const meta: SnapshotMeta = { ...snapshot.meta, fingerprint: parent.fingerprint };
  await admin
    .withClient(`updating the snapshot of "${parent.name}"`, (client) => client.query(`COMMENT ON DATABASE ${ident(snapshot.name)} IS ${metaLiteral(meta)}`))
    .catch(() => undefined);
  return true;
}
