/**
 * Picks and builds the configured database branch provider. Each provider module is loaded only
 * when chosen (PGlite's WebAssembly and the cloud clients cost start-up time nobody else should pay).
 * No secret is read from project.json: the postgres admin URL comes from `--url` or an environment
 * variable, API keys from the environment or the OS keychain.
 */
import type { ProviderKind } from '../../shared/branches';
import type { ProjectSettings } from '../project/settings';
import { BranchError, type BranchProvider } from './provider';

export const DEFAULT_POSTGRES_URL_ENV = 'BATON_POSTGRES_URL';

export interface ProviderContext {
  readonly settings: ProjectSettings;
  /** The per-project data folder. */
  readonly dataDir: string;
  /** `--url`: the postgres provider's admin connection URL. */
  readonly postgresUrl?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
}

export async function createProvider(kind: ProviderKind, context: ProviderContext): Promise<BranchProvider> {
  const branches = context.settings.branches ?? {};
  const env = context.env ?? process.env;
  switch (kind) {
    case 'pglite': {
      const { PgliteProvider } = await import('./pglite/pglite-provider');
      return new PgliteProvider({
        dataDir: context.dataDir,
        ...(branches.poolSize !== undefined ? { poolSize: branches.poolSize } : {}),
        ...(branches.pglite?.maxConnections !== undefined ? { maxConnections: branches.pglite.maxConnections } : {}),
        ...(branches.pglite?.idleSeconds !== undefined ? { idleSeconds: branches.pglite.idleSeconds } : {}),
      });
    }
    case 'postgres': {
      const urlEnv = branches.postgres?.urlEnv ?? DEFAULT_POSTGRES_URL_ENV;
      const adminUrl = context.postgresUrl ?? env[urlEnv];
      if (!adminUrl) {
        throw new BranchError(
          'invalid',
          `The postgres provider needs an admin connection URL and none was given. Pass --url postgresql://USER:PASSWORD@HOST:PORT/postgres, or set the environment variable ${urlEnv}` +
            (urlEnv === DEFAULT_POSTGRES_URL_ENV
              ? ' (another name can be set in .baton/project.json at branches.postgres.urlEnv).'
              : ' (named by branches.postgres.urlEnv in .baton/project.json).'),
        );
      }
      const { PostgresProvider } = await import('./postgres/postgres-provider');
      return new PostgresProvider({ adminUrl, ...(branches.poolSize !== undefined ? { poolSize: branches.poolSize } : {}) });
    }
    case 'neon': {
      const neon = branches.neon;
      if (!neon) throw missingSettings('neon', '"neon": { "projectId": "your-project-id" }');
      const apiKey = await secret('neon', env);
      const { NeonProvider } = await import('./neon/neon-provider');
      return new NeonProvider({
        apiKey,
        projectId: neon.projectId,
        ...(neon.apiUrl ? { apiUrl: neon.apiUrl } : {}),
        ...(neon.database ? { database: neon.database } : {}),
        ...(neon.role ? { role: neon.role } : {}),
      });
    }
    case 'lakebase': {
      const lakebase = branches.lakebase;
      if (!lakebase) throw missingSettings('lakebase', '"lakebase": { "host": "https://<workspace>.cloud.databricks.com", "project": "your-project" }');
      const token = await secret('lakebase', env);
      const { LakebaseProvider } = await import('./lakebase/lakebase-provider');
      return new LakebaseProvider({ host: lakebase.host, token, project: lakebase.project, ...(lakebase.database ? { database: lakebase.database } : {}) });
    }
  }
}

function missingSettings(kind: 'neon' | 'lakebase', example: string): BranchError {
  return new BranchError(
    'invalid',
    `The ${kind} provider is not configured: .baton/project.json has no branches.${kind} section. Add ${example} under "branches", then try again.`,
  );
}

async function secret(service: 'neon' | 'lakebase', env: NodeJS.ProcessEnv): Promise<string> {
  const { missingSecretMessage, readSecret } = await import('./secrets');
  const value = await readSecret(service, env);
  if (!value) throw new BranchError('auth', `The ${service} provider cannot start. ${missingSecretMessage(service)} Then try again.`);
  return value;
}
