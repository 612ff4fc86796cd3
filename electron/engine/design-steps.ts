/**
 * The design phase's work steps (specify, design, listTests) as agent turns through the agent port.
 * Each role works in a throwaway folder holding the request, its attachments and the feature's
 * current files, and writes one `artifact.json`; Baton validates it (schema, then design-checks.ts),
 * writes the feature's files from it and records the turn. An invalid artifact gets one retry with
 * the validator's words; a second refusal is recorded and escalates the lifecycle to a person.
 * A feature written by hand (no intake request) has no design turns: the steps leave it as it is.
 */
import type { GateName } from '../../shared/ledger';
import { cp, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DESIGN_ROLE_NAME as ROLE_NAME, DESIGN_SCHEMAS, noAgentFor, type DesignRole } from '../../shared/design-artifacts';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import type { RunEvent } from '../../shared/run';
import type { AgentAdapter, ContextPack, Role } from '../agents/agent-port';
import { featureFolder } from '../gates/locate';
import type { Ledger } from '../ledger';
import { readProject } from '../project';
import { judgeArtifact } from './design-checks';
import { takeUpRejections } from './revise';
import { currentDesignFiles, filesFor, GATE_OF, writeDesignFiles } from './design-files';
import { readJsonObject } from '../gates/conformance';
import { designPrompt } from './design-prompt';
import { ATTACHMENTS_DIR, REQUEST_FILE } from './intake';

export type DesignStepName = 'specify' | 'design' | 'listTests';

export interface DesignDeps {
  readonly root: string;
  readonly feature: string;
  readonly ledger: Ledger;
  agent(role: Role): AgentAdapter;
  readonly turnsDir: string;
  readonly emit: (event: RunEvent) => void;
  readonly signal?: AbortSignal;
}

/** How many times a role may hand in an artifact before a person is asked. */
export const DESIGN_ATTEMPTS = 2;

export class DesignEscalation extends Error {}

const STEP_GATE: Readonly<Record<DesignStepName, GateName>> = { specify: 'spec', design: 'design', listTests: 'test_list' };

/** Runs the step's roles in order; the design step adds the DBA and UX Designer only where the feature needs them. */
export async function designStep(deps: DesignDeps, step: DesignStepName, feedback: string | null): Promise<void> {
  // Redoing work a rejection sent back: the gate waits for a decision on the new round, not the old rejection.
  await takeUpRejections(deps.ledger, { feature: deps.feature, gates: [STEP_GATE[step]] });
  const featureDir = await featureFolder(path.join(deps.root, '.baton'), deps.feature);
  if (featureDir === null) return;
  const request = await readFile(path.join(featureDir, REQUEST_FILE), 'utf8').catch(() => null);
  if (request === null) return;
  if (step === 'specify') return roleTurns(deps, featureDir, 'specAuthor', request, feedback);
  if (step === 'listTests') return roleTurns(deps, featureDir, 'testStrategist', request, feedback);
  await roleTurns(deps, featureDir, 'architectReviewer', request, feedback);
  const architecture = await readJsonObject(path.join(featureDir, 'architecture.json'));
  const invariants = Array.isArray(architecture?.['persistenceInvariants']) ? architecture['persistenceInvariants'].length : 0;
  if (invariants > 0) await roleTurns(deps, featureDir, 'dba', request, feedback);
  else say(deps, `[baton] DBA skipped: the architecture names no persistence invariant.`);
  if ((await readJsonObject(path.join(featureDir, 'feature.json')))?.['user_interface'] === true)
    await roleTurns(deps, featureDir, 'uxDesigner', request, feedback);
  else say(deps, `[baton] UX Designer skipped: the spec says the feature has no user interface.`);
}

const say = (deps: DesignDeps, line: string): void => deps.emit({ kind: 'turn.output', item: null, chunk: `${line}\n` });

async function roleTurns(deps: DesignDeps, featureDir: string, role: DesignRole, request: string, feedback: string | null): Promise<void> {
  const gate = GATE_OF[role];
  const attachments = (await readdir(path.join(featureDir, ATTACHMENTS_DIR)).catch(() => [] as string[])).sort();
  let problems: string[] = [];
  // Each time the gate is sent back the role starts a new round (a scripted scenario can pin turns to it).
  const round =
    1 +
    recordsOf((await deps.ledger.read()).records, RECORD_TYPES.gateRejected).filter((r) => r.subject?.feature === deps.feature && r.data.gate === gate).length;
  await mkdir(deps.turnsDir, { recursive: true });
  for (let attempt = 1; attempt <= DESIGN_ATTEMPTS; attempt++) {
    if (deps.signal?.aborted) throw new Error('stopped');
    const dir = await mkdtemp(path.join(deps.turnsDir, `design-${role}-`));
    try {
      const current = await currentDesignFiles(featureDir);
      await cp(featureDir, path.join(dir, 'feature'), { recursive: true });
      await writeFile(path.join(dir, REQUEST_FILE), request);
      if (attachments.length > 0) await cp(path.join(featureDir, ATTACHMENTS_DIR), path.join(dir, ATTACHMENTS_DIR), { recursive: true });
      const schema = JSON.stringify(z.toJSONSchema(DESIGN_SCHEMAS[role], { io: 'input' }), null, 2);
      const prompt = designPrompt({ role, roleName: ROLE_NAME[role], request, attachments, current, feedback, problems, schema });
      const context = { ...(await packFor(deps, featureDir, role, attempt, { request, attachments, feedback, problems })), round };
      say(deps, `[baton] ${ROLE_NAME[role]}, attempt ${attempt}${round > 1 ? `, round ${round}` : ''}${feedback ? ' (with the Product Owner’s note)' : ''}`);
      const started = Date.now();
      const result = await deps.agent(role).turn({
        role,
        step: 'artifact',
        item: null,
        attempt,
        round,
        worktree: dir,
        prompt,
        failure: problems.length > 0 ? problems.join('\n') : null,
        env: {},
        context,
        ...(deps.signal ? { signal: deps.signal } : {}),
        onOutput: (chunk) => deps.emit({ kind: 'turn.output', item: null, chunk }),
      });
      const { raw, refused } = await artifactFile(dir);
      const read = await readProject(deps.root);
      const feature = read.ok ? (read.value.features.find((f) => f.id === deps.feature) ?? null) : null;
      const judged = refused !== null ? ({ ok: false, problems: [refused] } as const) : await judgeArtifact(role, raw, feature, featureDir);
      const files = judged.ok ? await filesFor(role, judged.value, featureDir, deps.feature) : {};
      const hashes = judged.ok ? await writeDesignFiles(role, featureDir, files) : {};
      problems = judged.ok ? [] : [...judged.problems];
      await deps.ledger.append({
        type: RECORD_TYPES.designTurn,
        actor: { kind: 'agent', id: `${role}:${deps.agent(role).name}` },
        subject: { feature: deps.feature, gate },
        data: {
          role,
          gate,
          attempt,
          round,
          outcome: judged.ok ? 'written' : 'refused',
          problems,
          files: hashes,
          feedback,
          turnMs: Date.now() - started,
          agentExitCode: result.exitCode,
        },
        blobs: [
          { name: 'agent/transcript.txt', content: Buffer.from(result.transcript) },
          { name: 'agent/prompt.md', content: Buffer.from(prompt) },
          ...(raw !== null ? [{ name: 'agent/artifact.json', content: Buffer.from(raw) }] : []),
          ...Object.entries(files).map(([name, text]) => ({ name: `files/${name}`, content: Buffer.from(text) })),
        ],
      });
      if (judged.ok) {
        say(deps, `[baton] ${ROLE_NAME[role]}'s artifact is valid: wrote ${Object.keys(files).join(', ')}`);
        return;
      }
      // No agent took the turn (the scripted one has none for this feature): a second attempt would not either.
      if (result.declined && raw === null) return declinedEscalation(deps, role, gate, attempt, result.declined);
      say(deps, `[baton] ${ROLE_NAME[role]}'s artifact was refused:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  await deps.ledger.append({
    type: RECORD_TYPES.designEscalated,
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature: deps.feature, gate },
    data: { role, gate, attempts: DESIGN_ATTEMPTS, problems },
  });
  throw new DesignEscalation(
    `the ${ROLE_NAME[role]}'s artifact was refused ${DESIGN_ATTEMPTS} times (${problems.join(' ')}). Write the ${gate} files by hand, or run again to give the ${ROLE_NAME[role]} two more attempts.`,
  );
}

/** No agent for the role: recorded, and a person is asked, in words that say what to do. */
async function declinedEscalation(deps: DesignDeps, role: DesignRole, gate: GateName, attempts: number, declined: string): Promise<never> {
  await deps.ledger.append({
    type: RECORD_TYPES.designEscalated,
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature: deps.feature, gate },
    data: { role, gate, attempts, problems: [], declined },
  });
  throw new DesignEscalation(noAgentFor(ROLE_NAME[role], gate, declined));
}

/** The largest artifact.json Baton reads. */
const MAX_ARTIFACT_BYTES = 1_000_000;

/**
 * The role's artifact.json, read only when it is a regular file of the turn folder: a link could
 * make Baton read (and keep in the ledger) a file the role points at — Baton's signing key, a
 * secret — instead of what the role wrote.
 */
async function artifactFile(dir: string): Promise<{ raw: string | null; refused: string | null }> {
  const file = path.join(dir, 'artifact.json');
  const stat = await lstat(file).catch(() => null);
  if (stat === null) return { raw: null, refused: null };
  if (!stat.isFile()) return { raw: null, refused: 'artifact.json is a link or not a regular file: write the JSON itself into artifact.json' };
  if (stat.size > MAX_ARTIFACT_BYTES)
    return { raw: null, refused: `artifact.json is ${stat.size} bytes, more than the 1 MB Baton reads: keep the artifact to its schema` };
  return { raw: await readFile(file, 'utf8'), refused: null };
}

async function packFor(deps: DesignDeps, dir: string, role: DesignRole, attempt: number, design: NonNullable<ContextPack['design']>): Promise<ContextPack> {
  const feature = await readJsonObject(path.join(dir, 'feature.json'));
  return {
    version: 1,
    role,
    step: 'artifact',
    feature: { id: deps.feature, name: String(feature?.['name'] ?? deps.feature), description: String(feature?.['description'] ?? '') },
    story: null,
    item: null,
    acceptanceCriterion: null,
    architecture: await readJsonObject(path.join(dir, 'architecture.json')),
    databaseDesign: await readJsonObject(path.join(dir, 'db-design.json')),
    mayWrite: ['artifact.json'],
    readOnly: [],
    testCommand: null,
    migrations: null,
    attempt,
    round: 1,
    failure: null,
    guidance: design.feedback,
    diff: null,
    design,
  };
}
