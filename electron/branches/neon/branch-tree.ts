/**
 * The branch tree as both cloud services describe it (an id, a name, a parent id), turned into
 * Baton's `DatabaseBranch` with parent names and depths. Shared by neon/ and lakebase/.
 *
 * A project's root is whatever the service calls its default branch (Neon: `main` or
 * `production`; Lakebase: `production`). When Baton asks for a root under another name (its tier
 * `main`), the provider records an alias so that name maps to the default branch.
 */
import type { BranchOp, BranchProgress } from '../../../shared/branches';
import type { CallOptions, DatabaseBranch } from '../provider';

export interface CloudBranch {
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly createdAt: string | null;
  readonly sizeBytes: number | null;
  readonly isDefault: boolean;
}

export class BranchTree {
  private readonly byId: Map<string, CloudBranch>;

  /** `aliases`: Baton name → service branch id, for roots Baton named differently. */
  constructor(
    readonly branches: readonly CloudBranch[],
    private readonly aliases: ReadonlyMap<string, string>,
  ) {
    this.byId = new Map(branches.map((b) => [b.id, b]));
  }

  /** The branch Baton calls `name`: an alias first, then the service's own name. */
  find(name: string): CloudBranch | undefined {
    const aliased = this.aliases.get(name);
    if (aliased && this.byId.has(aliased)) return this.byId.get(aliased);
    return this.branches.find((b) => b.name === name);
  }

  get(id: string): CloudBranch | undefined {
    return this.byId.get(id);
  }

  defaultBranch(): CloudBranch | undefined {
    return this.branches.find((b) => b.isDefault);
  }

  children(id: string): CloudBranch[] {
    return this.branches.filter((b) => b.parentId === id);
  }

  /** The name Baton knows a branch by (its alias, if it has one). */
  nameOf(branch: CloudBranch): string {
    for (const [alias, id] of this.aliases) if (id === branch.id) return alias;
    return branch.name;
  }

  depth(branch: CloudBranch): number {
    let depth = 0;
    const seen = new Set<string>([branch.id]);
    for (let parent = this.parentOf(branch); parent && !seen.has(parent.id); parent = this.parentOf(parent)) {
      seen.add(parent.id);
      depth++;
    }
    return depth;
  }

  view(branch: CloudBranch): DatabaseBranch {
    const parent = this.parentOf(branch);
    return {
      name: this.nameOf(branch),
      parent: parent ? this.nameOf(parent) : null,
      createdAt: branch.createdAt,
      sizeBytes: branch.sizeBytes,
      depth: this.depth(branch),
    };
  }

  views(): DatabaseBranch[] {
    return this.branches.map((b) => this.view(b));
  }

  private parentOf(branch: CloudBranch): CloudBranch | undefined {
    return branch.parentId ? this.byId.get(branch.parentId) : undefined;
  }
}

/** Progress reporting for one call: steps, retries and the final `done` with its duration. */
export class Reporter {
  private readonly started = Date.now();

  constructor(
    private readonly op: BranchOp,
    private readonly name: string,
    private readonly options: CallOptions | undefined,
  ) {}

  step(step: string): void {
    this.emit({ kind: 'branch.step', op: this.op, name: this.name, step });
  }

  retry(attempt: number, reason: string): void {
    this.emit({ kind: 'branch.retry', op: this.op, name: this.name, attempt, reason });
  }

  done(): void {
    this.emit({ kind: 'branch.done', op: this.op, name: this.name, ms: Date.now() - this.started });
  }

  private emit(event: BranchProgress): void {
    this.options?.onProgress?.(event);
  }
}
