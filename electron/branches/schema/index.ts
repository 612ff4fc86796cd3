/**
 * Schema comparison between a branch and its parent, for every provider that can connect:
 * introspect both (introspect.ts), then diff the snapshots (diff.ts, pure).
 */
import type { SchemaDiff } from '../../../shared/branches';
import { diffSchemas } from './diff';
import { introspectSchema } from './introspect';

/** Anything that answers SQL with rows: a `pg` Client or Pool, or a PGlite instance. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export { diffSchemas, renderColumn, renderTable } from './diff';
export { BATON_MIGRATIONS_TABLE, introspectSchema } from './introspect';
export type { ColumnSnapshot, ConstraintKind, ConstraintSnapshot, NamedDefinition, SchemaSnapshot, TableSnapshot } from './snapshot';

/** The branch's schema against its parent's: `before` is the parent's side of each change. */
export async function compareSchemas(branch: Queryable, parent: Queryable, names: { branch: string; parent: string }): Promise<SchemaDiff> {
  const [branchSnapshot, parentSnapshot] = await Promise.all([introspectSchema(branch), introspectSchema(parent)]);
  return diffSchemas(parentSnapshot, branchSnapshot, names);
}
