/**
 * Test support: a loopback stand-in for the Neon API v2 (https://api-docs.neon.tech) that replays
 * the documented shapes for the calls NeonProvider makes — branches list/create/delete/restore,
 * compare_schema, connection_uri and operation polling — with Neon's status codes: 201 on create,
 * 401 for a wrong bearer token, 404 for an unknown branch, 423 Locked while another operation
 * runs (injected with `lockNext`). Operations start `running` and report `finished` after
 * `pollsUntilFinished` polls (or never while `holdOperations` is set).
 */
import { randomUUID } from 'node:crypto';
import { FakeHttpServer, type RecordedRequest, type Reply } from './fake-http-server';
import type { NeonBranch, NeonOperation, NeonOperationStatus } from './neon-api';

export const FAKE_ROLE_PASSWORD = 'npg_fakeRolePassw0rd';

interface FakeOperation {
  op: NeonOperation;
  polls: number;
}

export class FakeNeonServer {
  readonly branches = new Map<string, NeonBranch>();
  readonly operations = new Map<string, FakeOperation>();
  /** Unified diff answered by compare_schema, per compared branch id. */
  readonly schemaDiffs = new Map<string, string>();
  pollsUntilFinished = 2;
  holdOperations = false;
  /** Report each new operation as `failed` once (Neon retries failed operations) before it runs on. */
  failOperationsOnce = false;
  /** Page size for the branch list (Neon pages with `pagination.next` and `cursor`); 0: one page. */
  pageSize = 0;
  private locked = 0;
  private seq = 0;

  private constructor(
    readonly http: FakeHttpServer,
    readonly apiKey: string,
    readonly projectId: string,
  ) {}

  static async start(options: { apiKey: string; projectId: string; defaultBranchName?: string }): Promise<FakeNeonServer> {
    const fake = new FakeNeonServer(await FakeHttpServer.start(), options.apiKey, options.projectId);
    fake.addBranch({ id: 'br-main-a1b2c3d4', name: options.defaultBranchName ?? 'main', default: true, logical_size: 30_785_536 });
    fake.install();
    return fake;
  }

  /** The `apiUrl` to give NeonProvider. */
  get apiUrl(): string {
    return `${this.http.origin}/api/v2`;
  }

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }

  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.http.requestsTo(method, path);
  }

  /** The next `count` mutating requests answer 423 Locked, as Neon does while an operation runs. */
  lockNext(count: number): void {
    this.locked = count;
  }

  addBranch(branch: Partial<NeonBranch> & { name: string }): NeonBranch {
    const full: NeonBranch = {
      id: branch.id ?? `br-${branch.name.replace(/[^a-z0-9]/g, '')}-${(++this.seq).toString(16).padStart(8, '0')}`,
      project_id: this.projectId,
      parent_id: branch.parent_id ?? null,
      name: branch.name,
      current_state: 'ready',
      logical_size: branch.logical_size,
      default: branch.default ?? false,
      protected: false,
      created_at: branch.created_at ?? new Date(Date.UTC(2025, 0, 1, 12, 0, this.seq)).toISOString().replace('.000', ''),
    };
    this.branches.set(full.id, full);
    return full;
  }

  byName(name: string): NeonBranch | undefined {
    return [...this.branches.values()].find((b) => b.name === name);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private install(): void {
    const project = `/api/v2/projects/${this.projectId}`;
    const http = this.http;
    http.before = (request) => {
      if (request.authorization !== `Bearer ${this.apiKey}`) return { status: 401, body: { code: '', message: 'authorization failed' } };
      if (!request.path.startsWith(`${project}/`)) return { status: 404, body: { code: '', message: 'project not found' } };
      if (request.method !== 'GET' && this.locked > 0) {
        this.locked--;
        return { status: 423, body: { code: '', message: 'project already has running conflicting operations, scheduling of new ones is prohibited' } };
      }
      return undefined;
    };
    http.route('GET', new RegExp(`^${project}/branches$`), (r) => this.list(r));
    http.route('POST', new RegExp(`^${project}/branches$`), (r) => this.create(r));
    http.route('DELETE', new RegExp(`^${project}/branches/([^/]+)$`), (_r, m) => this.remove(m[1]!));
    http.route('POST', new RegExp(`^${project}/branches/([^/]+)/restore$`), (r, m) => this.restore(m[1]!, r));
    http.route('GET', new RegExp(`^${project}/branches/([^/]+)/compare_schema$`), (r, m) => this.compare(m[1]!, r));
    http.route('GET', new RegExp(`^${project}/connection_uri$`), (r) => this.connectionUri(r));
    http.route('GET', new RegExp(`^${project}/operations/([^/]+)$`), (_r, m) => this.poll(m[1]!));
  }

  private list(request: RecordedRequest): Reply {
    const all = [...this.branches.values()];
    if (!this.pageSize) return { status: 200, body: { branches: all, annotations: {} } };
    const start = request.query.cursor ? Number(request.query.cursor) : 0;
    const page = all.slice(start, start + this.pageSize);
    const next = start + this.pageSize < all.length ? String(start + this.pageSize) : undefined;
    return { status: 200, body: { branches: page, annotations: {}, pagination: next ? { next, sort_by: 'updated_at', sort_order: 'desc' } : {} } };
  }

  private create(request: RecordedRequest): Reply {
    const body = (request.body ?? {}) as { branch?: { name?: string; parent_id?: string }; endpoints?: { type: string }[] };
    const parentId = body.branch?.parent_id ?? [...this.branches.values()].find((b) => b.default)?.id;
    if (!parentId || !this.branches.has(parentId)) return { status: 404, body: { code: '', message: 'parent branch not found' } };
    const branch = this.addBranch({ name: body.branch?.name ?? `br-${randomUUID().slice(0, 8)}`, parent_id: parentId, logical_size: 30_785_536 });
    const endpoint = {
      id: `ep-${branch.id.slice(3)}`,
      host: `ep-${branch.id.slice(3)}.us-east-2.aws.neon.tech`,
      type: 'read_write',
      branch_id: branch.id,
      current_state: 'init',
    };
    const operations = [
      this.operation(branch.id, 'create_timeline'),
      ...(body.endpoints?.length ? [this.operation(branch.id, 'start_compute', endpoint.id)] : []),
    ];
    const uri = `postgresql://neondb_owner:${FAKE_ROLE_PASSWORD}@${endpoint.host}/neondb?sslmode=require&channel_binding=require`;
    return {
      status: 201,
      body: {
        branch: { ...branch, current_state: 'init' },
        endpoints: body.endpoints?.length ? [endpoint] : [],
        operations,
        roles: [{ branch_id: branch.id, name: 'neondb_owner', protected: false }],
        databases: [{ branch_id: branch.id, name: 'neondb', owner_name: 'neondb_owner' }],
        connection_uris: body.endpoints?.length
          ? [{ connection_uri: uri, connection_parameters: { database: 'neondb', password: FAKE_ROLE_PASSWORD, role: 'neondb_owner', host: endpoint.host } }]
          : [],
      },
    };
  }

  private remove(branchId: string): Reply {
    const branch = this.branches.get(branchId);
    if (!branch) return { status: 404, body: { code: '', message: 'branch not found' } };
    if ([...this.branches.values()].some((b) => b.parent_id === branchId)) return { status: 422, body: { code: '', message: 'branch has children' } };
    this.branches.delete(branchId);
    return { status: 200, body: { branch, operations: [this.operation(branchId, 'delete_timeline')] } };
  }

  private restore(branchId: string, request: RecordedRequest): Reply {
    const branch = this.branches.get(branchId);
    const source = (request.body as { source_branch_id?: string } | undefined)?.source_branch_id;
    if (!branch || !source || !this.branches.has(source)) return { status: 404, body: { code: '', message: 'branch not found' } };
    const restored = { ...branch, last_reset_at: new Date().toISOString() };
    this.branches.set(branchId, restored);
    return { status: 200, body: { branch: restored, operations: [this.operation(branchId, 'create_timeline'), this.operation(branchId, 'suspend_compute')] } };
  }

  private compare(branchId: string, request: RecordedRequest): Reply {
    if (!this.branches.has(branchId) || !request.query.base_branch_id || !this.branches.has(request.query.base_branch_id)) {
      return { status: 404, body: { code: '', message: 'branch not found' } };
    }
    if (!request.query.db_name) return { status: 400, body: { code: '', message: 'db_name is required' } };
    return { status: 200, body: { diff: this.schemaDiffs.get(branchId) ?? '' } };
  }

  private connectionUri(request: RecordedRequest): Reply {
    const { branch_id: branchId, database_name: database, role_name: role } = request.query;
    if (!database || !role) return { status: 400, body: { code: '', message: 'database_name and role_name are required' } };
    if (!branchId || !this.branches.has(branchId)) return { status: 404, body: { code: '', message: 'branch not found' } };
    return {
      status: 200,
      body: {
        uri: `postgresql://${role}:${FAKE_ROLE_PASSWORD}@ep-${branchId.slice(3)}.us-east-2.aws.neon.tech/${database}?sslmode=require&channel_binding=require`,
      },
    };
  }

  private poll(operationId: string): Reply {
    const entry = this.operations.get(operationId);
    if (!entry) return { status: 404, body: { code: '', message: 'operation not found' } };
    entry.polls++;
    let status: NeonOperationStatus = 'running';
    if (this.failOperationsOnce && entry.polls === 1) status = 'failed';
    else if (!this.holdOperations && entry.polls >= this.pollsUntilFinished) status = 'finished';
    entry.op = { ...entry.op, status, failures_count: status === 'failed' ? 1 : entry.op.failures_count };
    return { status: 200, body: { operation: entry.op } };
  }

  private operation(branchId: string, action: string, endpointId?: string): NeonOperation {
    const op: NeonOperation = {
      id: randomUUID(),
      project_id: this.projectId,
      branch_id: branchId,
      endpoint_id: endpointId,
      action,
      status: 'running',
      failures_count: 0,
    };
    this.operations.set(op.id, { op, polls: 0 });
    return op;
  }
}
