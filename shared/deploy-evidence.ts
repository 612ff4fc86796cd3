/**
 * Deploy evidence (`features/<F>/deploy-evidence.json`): what ran, where, whether the deployed app
 * answered its health check, the verify run against it (its report's SHA-256) and when. The deploy
 * gate is ready to decide only with evidence that passes this schema; a deploy whose health check
 * or verify run failed is evidence of a failure, never approvable. Field names follow Consort's
 * deploy-evidence.json (snake_case) where it has them. Pure.
 */
import { z } from 'zod';

const text = z.string().trim().min(1, 'is empty');
/** An ISO-8601 time with a zone, as `new Date().toISOString()` writes it. */
const time = z.iso.datetime({ offset: true, message: 'is not an ISO-8601 time such as 2026-12-03T10:00:00Z' });

export const deployEvidenceSchema = z
  .looseObject({
    schema_version: z.literal(1).optional(),
    feature_id: text.optional(),
    /** What ran: the deploy command and how it exited. */
    ran: z.looseObject({ command: text, exit_code: z.number().int() }),
    /** Where: the target's name (`staging`, `local`) and the deployed app's address. */
    target: text,
    url: z.url({ message: 'is not a URL' }),
    /** The deployed app's health check. */
    health: z.looseObject({ ok: z.boolean(), url: z.url({ message: 'is not a URL' }).optional(), status: z.number().int().optional(), checked_at: time }),
    /** The orchestrator's verify run against the deployed app: its verdict and its report's hash. */
    verify: z.looseObject({
      passed: z.boolean(),
      command: text.optional(),
      report_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'is not a lowercase hex SHA-256'),
      summary: z.string().optional(),
    }),
    started_at: time,
    finished_at: time,
  })
  .superRefine((value, ctx) => {
    if (Date.parse(value.finished_at) < Date.parse(value.started_at)) {
      ctx.addIssue({ code: 'custom', path: ['finished_at'], message: 'is before started_at' });
    }
  });

export type DeployEvidence = z.infer<typeof deployEvidenceSchema>;

/**
 * Consort's own deploy-evidence.json (read, never written): `target`, `url`, `reachable`,
 * `verify.passed`, `deployed_at`. Its deploy gate needs `reachable` and `verify.passed`.
 */
export const consortDeployEvidenceSchema = z.looseObject({
  target: text,
  url: text,
  reachable: z.boolean(),
  verify: z.looseObject({ passed: z.boolean() }),
  deployed_at: text,
});

const where = (path: readonly PropertyKey[]): string => path.map(String).join('.') || '(the file)';

/** Every field that is missing or wrong, named by its path ("health.checked_at is missing"). */
const describe = (error: z.ZodError): string => {
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const issue of error.issues) {
    const name = where(issue.path);
    if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) missing.push(name);
    else wrong.push(`${name} ${issue.message}`);
  }
  return [missing.length ? `missing ${missing.join(', ')}` : null, ...wrong].filter((part): part is string => part !== null).join('; ');
};

/**
 * Why this value is not approvable deploy evidence, or null when it is. `consort` reads a Consort
 * project's file by Consort's rules.
 */
export function deployEvidenceProblem(value: unknown, layout: 'baton' | 'consort' = 'baton'): string | null {
  if (layout === 'consort') {
    const parsed = consortDeployEvidenceSchema.safeParse(value);
    if (!parsed.success) return `is not valid deploy evidence: ${describe(parsed.error)}`;
    if (!parsed.data.reachable) return 'records a deploy whose app did not answer (reachable is false)';
    if (!parsed.data.verify.passed) return 'records a deploy whose verify run failed (verify.passed is false)';
    return null;
  }
  const parsed = deployEvidenceSchema.safeParse(value);
  if (!parsed.success) {
    return `is not valid deploy evidence: ${describe(parsed.error)}. It needs ran {command, exit_code}, target, url, health {ok, checked_at}, verify {passed, report_sha256}, started_at and finished_at`;
  }
  const e = parsed.data;
  if (e.ran.exit_code !== 0) return `records a deploy command that failed (ran.exit_code is ${e.ran.exit_code})`;
  if (!e.health.ok)
    return `records a deploy whose health check failed (health.ok is false${e.health.status !== undefined ? `, status ${e.health.status}` : ''})`;
  if (!e.verify.passed) return 'records a deploy whose verify run failed (verify.passed is false)';
  return null;
}
