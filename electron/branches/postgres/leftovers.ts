/**
 * What crashed operations leave on the server: databases a create or reset left half-made (marked
 * `pending`, never a branch anyone can list), the roles of branches whose delete stopped
 * between dropping the database and dropping the role, and warm pool placeholders (pool-owner.ts)
 * whose entry is gone.
 */
import type { Admin } from './admin';
import { TEMP_PREFIX, isBranchMeta, parseMeta } from './layout';
import { placeholderLeftovers } from './pool-owner';
import type { BranchRoles } from './roles';

/** Every database with a Baton comment, helpers included, and how many sessions it has. */
const LEFTOVERS_SQL = `
select d.datname as name, c.comment, (select count(*) from pg_stat_activity a where a.datname = d.datname) as sessions
from pg_database d cross join lateral (select shobj_description(d.oid, 'pg_database') as comment) c
where c.comment like '{"baton":1,"role":"pending"%'`;

/**
 * Half-made databases older than `cutoff` (ms since the epoch) with nobody connected, and leftover
 * roles stored before it: listed (roles as `role <name>`), and dropped unless `dryRun`.
 */
export async function collectLeftovers(admin: Admin, roles: BranchRoles, cutoff: number, dryRun: boolean): Promise<string[]> {
  const stale = await admin.withClient('collecting leftover databases', async (client) => {
    const { rows } = await client.query<{ name: string; comment: string; sessions: string }>(LEFTOVERS_SQL);
    const old = rows.filter((row) => {
      const meta = parseMeta(row.comment);
      // `pending`: a create whose preparation never finished, or a reset's replacement (baton_tmp_…).
      return isBranchMeta(meta) && meta.role === 'pending' && Number(row.sessions) === 0 && Date.parse(meta.createdAt) < cutoff;
    });
    if (!dryRun) for (const row of old) await admin.remove(client, row.name);
    return old.map((row) => row.name).sort();
  });
  // A crashed create's role goes with its database; a reset's replacement was built for a branch that is still there.
  if (!dryRun) for (const name of stale) if (!name.startsWith(TEMP_PREFIX)) await roles.drop(name).catch(() => false);
  return [...stale, ...(await roles.leftovers(cutoff, dryRun)), ...(await placeholderLeftovers(admin, dryRun))];
}
