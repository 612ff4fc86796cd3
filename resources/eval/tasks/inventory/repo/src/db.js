/**
 * The connection pool. DATABASE_URL names the database: Baton sets it to the throwaway database
 * branch of each test run, with every migration in migrations/ applied.
 */
import process from 'node:process';
import pg from 'pg';

export function createPool(options = {}) {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is not set: point it at a Postgres database with the migrations in migrations/ applied.');
  return new pg.Pool({ connectionString, ...options });
}
