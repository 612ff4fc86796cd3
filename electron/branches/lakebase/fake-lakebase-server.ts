/**
 * Test support: a loopback stand-in for Databricks' Lakebase Postgres API
 * (https://docs.databricks.com/api/postgres/v1) replaying the documented shapes for the calls
 * LakebaseProvider makes: branches list/create/delete as long-running operations
 * (`{name, done}` polled with GET /api/2.0/postgres/{name}), endpoint listing with
 * `status.hosts.host`, credential generation and SCIM Me. Errors use Databricks' body
 * `{error_code, message}`: 401 UNAUTHENTICATED for a wrong token, 404 NOT_FOUND, 409
 * ALREADY_EXISTS, and 409 ABORTED for a concurrent change (injected with `conflictNext`; the
 * reference does not document that status, so this is Databricks' general convention).
 */
import { randomUUID } from 'node:crypto';
import { FakeHttpServer, type RecordedRequest, type Reply } from '../neon/fake-http-server';
import type { LakebaseBranch, LakebaseOperation } from './lakebase-api';

interface FakeOperation {
  op: LakebaseOperation;
  polls: number;
  /** Applied when the operation completes. */
  complete: () => unknown;
}

export class FakeLakebaseServer {
  readonly branches = new Map<string, LakebaseBranch>();
  readonly operations = new Map<string, FakeOperation>();
  /** Tokens handed out by generate-database-credential, in order. */
  readonly credentials: { endpoint: string; token: string }[] = [];
  pollsUntilDone = 2;
  holdOperations = false;
  /** Fail the next create operation with this error once done (an operation-level failure). */
  failNextCreate: { error_code: string; message: string } | null = null;
  /** Host of each branch's read-write endpoint; tests may point it at a local server. */
  endpointHost: (branchId: string) => string = (id) => `ep-${id}.database.us-east-1.cloud.databricks.com`;
  userName = 'dev@example.com';
  /** What generate-database-credential hands out; tests against a real server make it that server's password. */
  issueToken: () => string = () => `eyJfake.${randomUUID()}.credential`;
  private conflicts = 0;
  private seq = 0;

  private constructor(
    readonly http: FakeHttpServer,
    readonly token: string,
    readonly project: string,
  ) {}

  static async start(options: { token: string; project: string }): Promise<FakeLakebaseServer> {
    const fake = new FakeLakebaseServer(await FakeHttpServer.start(), options.token, options.project);
    fake.addBranch('production', null, { default: true, size: '31457280' });
    fake.install();
    return fake;
  }

  /** The workspace URL to give LakebaseProvider as `host`. */
  get host(): string {
    return this.http.origin;
  }

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }

  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.http.requestsTo(method, path);
  }

  /** The next `count` mutating requests answer 409 ABORTED. */
  conflictNext(count: number): void {
    this.conflicts = count;
  }

  branchName(id: string): string {
    return `projects/${this.project}/branches/${id}`;
  }

  addBranch(id: string, parentId: string | null, extra: { default?: boolean; size?: string; isProtected?: boolean; createTime?: string } = {}): LakebaseBranch {
    const branch: LakebaseBranch = {
      name: this.branchName(id),
      uid: `br-${(++this.seq).toString(16).padStart(8, '0')}`,
      create_time: extra.createTime ?? new Date(Date.UTC(2025, 0, 1, 12, 0, this.seq)).toISOString(),
      status: {
        current_state: 'READY',
        default: extra.default ?? false,
        is_protected: extra.isProtected ?? false,
        ...(extra.size ? { logical_size_bytes: extra.size } : {}),
        ...(parentId ? { source_branch: this.branchName(parentId) } : {}),
      },
    };
    this.branches.set(id, branch);
    return branch;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private install(): void {
    const base = `/api/2.0/postgres/projects/${this.project}`;
    this.http.before = (request) => {
      if (request.authorization !== `Bearer ${this.token}`) return { status: 401, body: { error_code: 'UNAUTHENTICATED', message: 'Invalid access token.' } };
      if (request.path.startsWith('/api/2.0/postgres/projects/') && !request.path.startsWith(`${base}`)) {
        return { status: 404, body: { error_code: 'NOT_FOUND', message: 'Project not found.' } };
      }
      if (request.method !== 'GET' && this.conflicts > 0) {
        this.conflicts--;
        return { status: 409, body: { error_code: 'ABORTED', message: 'Another operation is in progress on this resource.' } };
      }
      return undefined;
    };
    this.http.route('GET', /^\/api\/2\.0\/preview\/scim\/v2\/Me$/, () => ({ status: 200, body: { id: '4242', userName: this.userName, active: true } }));
    this.http.route('GET', new RegExp(`^${base}/branches$`), () => ({ status: 200, body: { branches: [...this.branches.values()] } }));
    this.http.route('POST', new RegExp(`^${base}/branches$`), (r) => this.create(r));
    this.http.route('DELETE', new RegExp(`^${base}/branches/([^/]+)$`), (_r, m) => this.remove(m[1]!));
    this.http.route('GET', new RegExp(`^${base}/branches/([^/]+)/endpoints$`), (_r, m) => this.endpoints(m[1]!));
    this.http.route('GET', new RegExp(`^${base}/branches/[^/]+/operations/[^/]+$`), (r) => this.poll(r.path.replace('/api/2.0/postgres/', '')));
    this.http.route('POST', /^\/api\/2\.0\/postgres\/credentials$/, (r) => this.credential(r));
  }

  private create(request: RecordedRequest): Reply {
    const id = request.query.branch_id;
    const body = (request.body ?? {}) as { spec?: { source_branch?: string; no_expiry?: boolean; ttl?: string; expire_time?: string } };
    if (!id || !/^[a-z][a-z0-9-]{0,62}$/.test(id))
      return { status: 400, body: { error_code: 'INVALID_PARAMETER_VALUE', message: 'branch_id must be 1-63 lowercase letters, digits or hyphens.' } };
    if (!body.spec?.no_expiry && !body.spec?.ttl && !body.spec?.expire_time)
      return { status: 400, body: { error_code: 'INVALID_PARAMETER_VALUE', message: 'An expiration policy is required: set no_expiry, ttl or expire_time.' } };
    if (this.branches.has(id)) return { status: 409, body: { error_code: 'ALREADY_EXISTS', message: `Branch ${id} already exists.` } };
    const sourceId = body.spec.source_branch?.split('/').pop();
    if (!sourceId || !this.branches.has(sourceId)) return { status: 404, body: { error_code: 'NOT_FOUND', message: 'Source branch not found.' } };
    const failure = this.failNextCreate;
    this.failNextCreate = null;
    if (!failure) this.addBranch(id, sourceId, { size: '31457280' });
    const op = this.operation(id, () => (failure ? undefined : this.branches.get(id)), failure);
    return { status: 200, body: op };
  }

  private remove(id: string): Reply {
    if (!this.branches.has(id)) return { status: 404, body: { error_code: 'NOT_FOUND', message: `Branch ${id} not found.` } };
    this.branches.delete(id);
    return { status: 200, body: this.operation(id, () => ({})) };
  }

  private endpoints(id: string): Reply {
    if (!this.branches.has(id)) return { status: 404, body: { error_code: 'NOT_FOUND', message: `Branch ${id} not found.` } };
    const name = `${this.branchName(id)}/endpoints/primary`;
    return {
      status: 200,
      body: {
        endpoints: [
          {
            name: `${this.branchName(id)}/endpoints/replica`,
            parent: this.branchName(id),
            status: { endpoint_type: 'ENDPOINT_TYPE_READ_ONLY', hosts: { host: `ro-${id}.example` }, current_state: 'IDLE' },
          },
          {
            name,
            parent: this.branchName(id),
            spec: { endpoint_type: 'ENDPOINT_TYPE_READ_WRITE' },
            status: { endpoint_type: 'ENDPOINT_TYPE_READ_WRITE', hosts: { host: this.endpointHost(id) }, current_state: 'ACTIVE' },
          },
        ],
      },
    };
  }

  private credential(request: RecordedRequest): Reply {
    const endpoint = (request.body as { endpoint?: string } | undefined)?.endpoint;
    const id = endpoint?.match(/branches\/([^/]+)\/endpoints\/primary$/)?.[1];
    if (!endpoint || !id || !this.branches.has(id)) return { status: 404, body: { error_code: 'NOT_FOUND', message: 'Endpoint not found.' } };
    const token = this.issueToken();
    this.credentials.push({ endpoint, token });
    return { status: 200, body: { token, expire_time: new Date(Date.now() + 3_600_000).toISOString() } };
  }

  private poll(name: string): Reply {
    const entry = this.operations.get(name);
    if (!entry) return { status: 404, body: { error_code: 'NOT_FOUND', message: 'Operation not found.' } };
    entry.polls++;
    if (!entry.op.done && !this.holdOperations && entry.polls >= this.pollsUntilDone) {
      const response = entry.complete();
      entry.op = entry.op.error ? { ...entry.op, done: true } : { ...entry.op, done: true, response };
    }
    const { error: _error, ...running } = entry.op;
    return { status: 200, body: entry.op.done ? entry.op : running };
  }

  private operation(branchId: string, complete: () => unknown, error: { error_code: string; message: string } | null = null): LakebaseOperation {
    const name = `${this.branchName(branchId)}/operations/${randomUUID()}`;
    const op: LakebaseOperation = { name, done: false, ...(error ? { error } : {}) };
    this.operations.set(name, { op, polls: 0, complete });
    const { error: _hidden, ...visible } = op;
    return visible;
  }
}
