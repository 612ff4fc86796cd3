/**
 * The slice of Databricks' Lakebase Postgres API (Lakebase Autoscaling: projects, branches,
 * endpoints) Baton uses. Paths and fields come from the API reference at
 * https://docs.databricks.com/api/postgres/v1 (pages named after each call) and agree with the
 * generated Databricks SDKs (databricks-sdk-go service/postgres impl.go and model.go):
 *
 *   GET    /api/2.0/postgres/projects/{p}/branches                    list-branches (branches, next_page_token)
 *   POST   /api/2.0/postgres/projects/{p}/branches?branch_id={id}     create-branch → Operation
 *   DELETE /api/2.0/postgres/projects/{p}/branches/{id}               delete-branch → Operation
 *   GET    /api/2.0/postgres/{operation name}                         get-operation (name, done, error, response)
 *   GET    /api/2.0/postgres/projects/{p}/branches/{id}/endpoints     list-endpoints (status.hosts.host)
 *   POST   /api/2.0/postgres/credentials  {endpoint}                  generate-database-credential → {token, expire_time}
 *   GET    /api/2.0/preview/scim/v2/Me                                 the caller's userName (the Postgres role)
 *
 * Unclear in the docs, and decided here:
 * - create-branch lists its body as a `branch` object; the SDKs send that Branch itself as the
 *   body (gRPC transcoding `body: "branch"`), matching the CLI example `--json '{"spec": …}'`.
 * - A new branch "must specify an expiration policy": Baton sends `spec.no_expiry: true` and
 *   collects its own branches (`baton branch gc`).
 * - The credential page marks both `ttl` and `expire_time` required, though they are
 *   alternatives; the SDK examples send only `endpoint`, and so does Baton (default lifetime, 1 h).
 * - No reset-from-parent call is documented for Lakebase (the console has one); see the provider.
 * - Endpoint types appear both as `ENDPOINT_TYPE_READ_WRITE` (reference) and `READ_WRITE`
 *   (older SDK), and the host as `status.hosts.host` (reference) or `status.host` (older SDK):
 *   both spellings are accepted.
 * - int64 fields (`logical_size_bytes`) may arrive as JSON strings (proto3 JSON) or numbers.
 */
import { RestClient, defaultClassify, type Fetch } from '../neon/rest-client';
import type { CloudBranch } from '../neon/branch-tree';

export interface LakebaseBranch {
  /** `projects/{project_id}/branches/{branch_id}`. */
  readonly name: string;
  readonly uid?: string;
  readonly create_time?: string;
  readonly spec?: { readonly source_branch?: string; readonly default?: boolean; readonly is_protected?: boolean };
  readonly status?: {
    readonly current_state?: string;
    readonly default?: boolean;
    readonly is_protected?: boolean;
    readonly logical_size_bytes?: number | string;
    readonly source_branch?: string;
  };
}

export interface LakebaseOperation {
  /** e.g. `projects/{p}/branches/{b}/operations/{id}`; polled with GET /api/2.0/postgres/{name}. */
  readonly name?: string;
  readonly done?: boolean;
  readonly error?: { readonly error_code?: string; readonly message?: string };
  readonly response?: unknown;
}

export interface LakebaseEndpoint {
  readonly name: string;
  readonly spec?: { readonly endpoint_type?: string };
  readonly status?: { readonly endpoint_type?: string; readonly hosts?: { readonly host?: string }; readonly host?: string; readonly current_state?: string };
}

interface CallContext {
  readonly signal?: AbortSignal;
  readonly what: string;
  readonly onRetry?: (attempt: number, reason: string) => void;
}

export interface LakebaseApiOptions {
  readonly host: string;
  readonly token: string;
  readonly project: string;
  readonly authHint: string;
  readonly fetch?: Fetch;
  readonly retryDelayMs?: number;
}

const EXISTS = new Set(['ALREADY_EXISTS', 'RESOURCE_ALREADY_EXISTS']);

export class LakebaseApi {
  readonly client: RestClient;
  readonly projectName: string;

  constructor(options: LakebaseApiOptions) {
    this.projectName = `projects/${options.project}`;
    this.client = new RestClient({
      baseUrl: `${workspaceUrl(options.host)}/api/2.0`,
      token: options.token,
      service: 'Databricks',
      credentialName: 'token',
      authHint: options.authHint,
      notFoundHint: `check that Lakebase project ${options.project} exists in this workspace and that lakebase.host and lakebase.project in .baton/project.json name it`,
      fetch: options.fetch,
      retryDelayMs: options.retryDelayMs,
      classify: (status, body) => {
        if (status === 409 && body.code && EXISTS.has(body.code)) return { code: 'exists', retry: false };
        // Databricks answers 409 (ABORTED, RESOURCE_CONFLICT) to a concurrent change: retryable.
        if (status === 409) return { code: 'busy', retry: true };
        return defaultClassify(status);
      },
    });
  }

  branchName(id: string): string {
    return `${this.projectName}/branches/${id}`;
  }

  async listBranches(ctx: CallContext): Promise<LakebaseBranch[]> {
    const all: LakebaseBranch[] = [];
    const seen = new Set<string>();
    let pageToken: string | undefined;
    for (;;) {
      const page = await this.client.request<{ branches?: LakebaseBranch[]; next_page_token?: string }>(`/postgres/${this.projectName}/branches`, {
        ...ctx,
        query: { page_token: pageToken },
      });
      all.push(...(page.branches ?? []));
      const next = page.next_page_token;
      if (!next || seen.has(next)) return all;
      seen.add(next);
      pageToken = next;
    }
  }

  createBranch(id: string, sourceBranch: string, ctx: CallContext): Promise<LakebaseOperation> {
    return this.client.request(`/postgres/${this.projectName}/branches`, {
      ...ctx,
      method: 'POST',
      query: { branch_id: id },
      body: { spec: { source_branch: sourceBranch, no_expiry: true } },
    });
  }

  deleteBranch(name: string, ctx: CallContext): Promise<LakebaseOperation> {
    return this.client.request(`/postgres/${name}`, { ...ctx, method: 'DELETE' });
  }

  getOperation(name: string, ctx: CallContext): Promise<LakebaseOperation> {
    return this.client.request(`/postgres/${name}`, ctx);
  }

  async listEndpoints(branch: string, ctx: CallContext): Promise<LakebaseEndpoint[]> {
    const answer = await this.client.request<{ endpoints?: LakebaseEndpoint[] }>(`/postgres/${branch}/endpoints`, ctx);
    return answer.endpoints ?? [];
  }

  /** A short-lived OAuth token to use as the Postgres password on `endpoint`. */
  async generateCredential(endpoint: string, ctx: CallContext): Promise<string> {
    const answer = await this.client.request<{ token?: string }>('/postgres/credentials', { ...ctx, method: 'POST', body: { endpoint } });
    if (!answer.token) throw new Error('Databricks returned a database credential without a token');
    return answer.token;
  }

  /** The caller's Databricks user name, which is also their Postgres role. */
  async currentUser(ctx: CallContext): Promise<string> {
    const me = await this.client.request<{ userName?: string }>('/preview/scim/v2/Me', ctx);
    if (!me.userName) throw new Error('Databricks did not say who the token belongs to (SCIM Me has no userName)');
    return me.userName;
  }
}

/** `adb-1.azuredatabricks.net/` → `https://adb-1.azuredatabricks.net`. */
export function workspaceUrl(host: string): string {
  const trimmed = host.trim().replace(/\/+$/, '');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

export function readWriteHost(endpoints: readonly LakebaseEndpoint[]): { endpoint: LakebaseEndpoint; host: string } | null {
  for (const endpoint of endpoints) {
    const type = endpoint.status?.endpoint_type ?? endpoint.spec?.endpoint_type ?? '';
    const host = endpoint.status?.hosts?.host ?? endpoint.status?.host;
    if (type.endsWith('READ_WRITE') && host) return { endpoint, host };
  }
  return null;
}

export function toCloudBranch(branch: LakebaseBranch): CloudBranch {
  const size = Number(branch.status?.logical_size_bytes);
  return {
    id: branch.name,
    name: branch.name.split('/').pop() ?? branch.name,
    parentId: branch.status?.source_branch ?? branch.spec?.source_branch ?? null,
    createdAt: branch.create_time ?? null,
    sizeBytes: branch.status?.logical_size_bytes !== undefined && Number.isFinite(size) ? size : null,
    isDefault: branch.status?.default === true || branch.spec?.default === true,
  };
}

export function isProtected(branch: LakebaseBranch): boolean {
  return branch.status?.is_protected === true || branch.spec?.is_protected === true;
}
