/**
 * The slice of the Neon API v2 Baton uses, with the request and response shapes from Neon's
 * reference (https://api-docs.neon.tech, mirrored at https://neon.com/docs/reference/api/…):
 *
 *   GET    /projects/{project_id}/branches                      branches/list-project-branches
 *   POST   /projects/{project_id}/branches                      branches/create-project-branch
 *   DELETE /projects/{project_id}/branches/{branch_id}          branches/delete-project-branch
 *   POST   /projects/{project_id}/branches/{branch_id}/restore  branches/restore-project-branch
 *   GET    /projects/{project_id}/branches/{branch_id}/compare_schema
 *                                                               branches/get-project-branch-schema-comparison
 *   GET    /projects/{project_id}/connection_uri                projects/get-connection-uri
 *   GET    /projects/{project_id}/operations/{operation_id}     operations/get-project-operation
 *
 * Every call sends `Authorization: Bearer <key>`. Mutations return `operations` that run in the
 * background; Neon answers 423 Locked while another operation holds the project ("retry with
 * exponential backoff", reference/api/operations), which the client retries.
 */
import { defaultClassify, RestClient, type Fetch } from './rest-client';
import type { CloudBranch } from './branch-tree';

export interface NeonBranch {
  readonly id: string;
  readonly project_id?: string;
  readonly parent_id?: string | null;
  readonly name: string;
  readonly current_state?: string;
  /** Bytes; absent until Neon has measured the branch. */
  readonly logical_size?: number;
  readonly default?: boolean;
  readonly protected?: boolean;
  readonly created_at?: string;
  readonly last_reset_at?: string;
}

/** Neon's operation statuses (reference/api/operations): terminal are finished, skipped, cancelled. */
export type NeonOperationStatus = 'scheduling' | 'running' | 'finished' | 'failed' | 'cancelling' | 'cancelled' | 'skipped';

export interface NeonOperation {
  readonly id: string;
  readonly project_id?: string;
  readonly branch_id?: string;
  readonly endpoint_id?: string;
  readonly action: string;
  readonly status: NeonOperationStatus;
  readonly failures_count?: number;
  readonly error?: string;
}

export interface NeonConnectionUri {
  readonly connection_uri: string;
}

export interface NeonBranchCreated {
  readonly branch: NeonBranch;
  readonly endpoints?: readonly { readonly id: string; readonly host?: string; readonly type?: string }[];
  readonly operations?: readonly NeonOperation[];
  readonly connection_uris?: readonly NeonConnectionUri[];
}

export interface NeonBranchChanged {
  readonly branch: NeonBranch;
  readonly operations?: readonly NeonOperation[];
}

interface CallContext {
  readonly signal?: AbortSignal;
  readonly what: string;
  readonly onRetry?: (attempt: number, reason: string) => void;
}

export interface NeonApiOptions {
  readonly apiKey: string;
  readonly projectId: string;
  readonly apiUrl: string;
  readonly authHint: string;
  readonly fetch?: Fetch;
  readonly retryDelayMs?: number;
}

export class NeonApi {
  readonly client: RestClient;
  private readonly project: string;

  constructor(private readonly options: NeonApiOptions) {
    this.project = `/projects/${encodeURIComponent(options.projectId)}`;
    this.client = new RestClient({
      baseUrl: options.apiUrl,
      token: options.apiKey,
      service: 'Neon',
      credentialName: 'API key',
      authHint: options.authHint,
      notFoundHint: `check that Neon project ${options.projectId} exists and that neon.projectId in .baton/project.json names it`,
      fetch: options.fetch,
      retryDelayMs: options.retryDelayMs,
      // 423 Locked is Neon's "another operation is running": retry. A 409 is a real conflict.
      classify: (status) => (status === 423 ? { code: 'busy', retry: true } : defaultClassify(status)),
    });
  }

  /** Every branch, following `pagination.next` when Neon pages the list. */
  async listBranches(ctx: CallContext): Promise<NeonBranch[]> {
    const all: NeonBranch[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.client.request<{ branches?: NeonBranch[]; pagination?: { next?: string } }>(`${this.project}/branches`, {
        ...ctx,
        query: { cursor },
      });
      const branches = page.branches ?? [];
      all.push(...branches);
      const next = page.pagination?.next;
      if (!next || branches.length === 0 || seen.has(next)) return all;
      seen.add(next);
      cursor = next;
    }
  }

  createBranch(name: string, parentId: string, ctx: CallContext): Promise<NeonBranchCreated> {
    return this.client.request(`${this.project}/branches`, {
      ...ctx,
      method: 'POST',
      body: { branch: { name, parent_id: parentId }, endpoints: [{ type: 'read_write' }] },
    });
  }

  deleteBranch(branchId: string, ctx: CallContext): Promise<NeonBranchChanged> {
    return this.client.request(`${this.project}/branches/${encodeURIComponent(branchId)}`, { ...ctx, method: 'DELETE' });
  }

  /**
   * Reset from parent is a restore to the parent's head (`source_branch_id` = parent, no LSN or
   * timestamp), as `neonctl branches reset --parent` does. Baton never sends `preserve_under_name`:
   * it would leave an extra branch behind; a branch with children is refused before this call.
   */
  restoreFromParent(branchId: string, parentId: string, ctx: CallContext): Promise<NeonBranchChanged> {
    return this.client.request(`${this.project}/branches/${encodeURIComponent(branchId)}/restore`, {
      ...ctx,
      method: 'POST',
      body: { source_branch_id: parentId },
    });
  }

  async getOperation(operationId: string, ctx: CallContext): Promise<NeonOperation> {
    const answer = await this.client.request<{ operation: NeonOperation }>(`${this.project}/operations/${encodeURIComponent(operationId)}`, ctx);
    return answer.operation;
  }

  async connectionUri(branchId: string, database: string, role: string, ctx: CallContext): Promise<string> {
    const answer = await this.client.request<{ uri: string }>(`${this.project}/connection_uri`, {
      ...ctx,
      query: { branch_id: branchId, database_name: database, role_name: role },
    });
    return answer.uri;
  }

  /** Neon's unified diff of the two branches' `pg_dump --schema-only`; empty when they match. */
  async compareSchema(branchId: string, baseBranchId: string, database: string, ctx: CallContext): Promise<string> {
    const answer = await this.client.request<{ diff?: string }>(`${this.project}/branches/${encodeURIComponent(branchId)}/compare_schema`, {
      ...ctx,
      query: { base_branch_id: baseBranchId, db_name: database },
    });
    return answer.diff ?? '';
  }
}

export function toCloudBranch(branch: NeonBranch): CloudBranch {
  return {
    id: branch.id,
    name: branch.name,
    parentId: branch.parent_id ?? null,
    createdAt: branch.created_at ?? null,
    sizeBytes: typeof branch.logical_size === 'number' ? branch.logical_size : null,
    isDefault: branch.default === true,
  };
}
