/** A migration run that stopped: carries what was applied before it stopped. */
import type { MigrationReport } from '../../../shared/branches';
import { BranchError, type BranchErrorCode } from '../provider';

export class MigrationError extends BranchError {
  /** The failing (or changed) file, relative to the project root; null for a command tool. */
  readonly file: string | null;
  /** 1-based line in `file` where Postgres placed the error, when it did. */
  readonly line: number | null;

  constructor(
    code: BranchErrorCode,
    message: string,
    /** Migrations applied (and kept) before the failure. */
    readonly report: MigrationReport,
    where: { file: string | null; line: number | null; cause?: unknown },
  ) {
    super(code, message, where.cause === undefined ? undefined : { cause: where.cause });
    this.name = 'MigrationError';
    this.file = where.file;
    this.line = where.line;
  }
}
