/**
 * Warm pool entries owned ahead of time. Handing a copy's objects to a branch role means
 * connecting to the copy and altering each object, tens of milliseconds and more with a big
 * schema: that would make a warm create, otherwise a rename, many times slower. So the refill does
 * it in the background. Each entry gets a placeholder role named exactly like the entry (roles and
 * databases have separate names), NOLOGIN, that owns everything in the entry and is granted what a
 * branch role is granted on it (the entry itself stays the admin's: role-sql.ts grantDatabase);
 * claiming the entry renames the placeholder to the branch's role and lets it log in
 * (BranchRoles.provision).
 *
 * The entry is closed to PUBLIC first and open to connections (so the admin's only) just while its
 * objects are handed over. Claimers only take entries with the pool's comment (warm-pool.ts),
 * written after this, so they never meet one half done; one whose preparation failed is still
 * claimable, and its claimer hands the objects over itself.
 */
import type { Admin } from './admin';
import { ident } from './layout';
import { transferOwnership } from './ownership';
import { dropRole, grantDatabase } from './role-sql';

const PLACEHOLDER_ATTRIBUTES = 'NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';

/** Best effort, never throws: an entry left as it was is still usable. True when the entry is owned by its placeholder. */
export async function preparePoolEntry(admin: Admin, entry: string, superuser: boolean): Promise<boolean> {
  const name = ident(entry);
  const what = `preparing the warm pool entry "${entry}"`;
  try {
    await admin.withClient(what, async (client) => {
      await client.query(`CREATE ROLE ${name} ${PLACEHOLDER_ATTRIBUTES}`);
      // A non-superuser admin (CREATEDB CREATEROLE) must be a member to hand the role a database.
      if (!superuser) await client.query(`GRANT ${name} TO CURRENT_USER`);
      await client.query(`REVOKE ALL ON DATABASE ${name} FROM PUBLIC; ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    });
    await transferOwnership(admin, entry, entry);
    // One transaction: closed again, and granted to the placeholder only once everything in it is its.
    await admin.withClient(what, (client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false; ${grantDatabase(entry, entry)}`));
    return true;
  } catch {
    // Retired meanwhile, or the admin may not create roles (then creates say so themselves).
    await admin.withClient(what, (client) => client.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)).catch(() => undefined);
    await dropPlaceholders(admin, [entry]);
    return false;
  }
}

/**
 * Drops the placeholder roles of pool entries that are gone (retired, or claimed: a claimed
 * entry's placeholder is the branch's role by then, or was dropped by its claimer). One that still
 * owns something is left for the leftover sweep.
 */
export async function dropPlaceholders(admin: Admin, entries: readonly string[]): Promise<void> {
  if (entries.length === 0) return;
  await admin
    .withClient('dropping the placeholder roles of retired pool entries', async (client) => {
      for (const entry of entries) await dropRole(client, entry).catch(() => false);
    })
    .catch(() => undefined);
}

/**
 * Placeholder roles whose entry is gone and that hold no database (a refill that crashed): dropped
 * unless `dryRun`. One that holds a database (granted, or owned as earlier versions left it) is an
 * entry claimed by a create that crashed before renaming it: that branch's next use renames it.
 */
export async function placeholderLeftovers(admin: Admin, dryRun: boolean): Promise<string[]> {
  return admin.withClient('looking for leftover placeholder roles', async (client) => {
    const { rows } = await client.query<{ role: string }>(
      `select r.rolname as role from pg_roles r where r.rolname ~ '^baton_pool_[0-9a-f]{10}_[0-9a-f]{8}_[0-9a-f]{6}$'
       and not exists (select 1 from pg_database d where d.datname = r.rolname or d.datdba = r.oid)
       and not exists (select 1 from pg_database d cross join lateral aclexplode(d.datacl) a where a.grantee = r.oid) order by 1`,
    );
    const out: string[] = [];
    for (const { role } of rows) if (dryRun || (await dropRole(client, role))) out.push(`role ${role}`);
    return out;
  });
}
