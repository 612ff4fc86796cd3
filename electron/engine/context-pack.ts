/**
 * Context packs: what the orchestrator gives a role for one turn, assembled from the frozen
 * artifacts (feature, story, AC, architecture, database design) and the cycle's own state (scope,
 * locked files, the failing run on a repair). Nothing a role must not see: a review gets the
 * cycle's diff, never the Driver's transcript.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContextPack, Role, TurnStep } from '../agents/agent-port';
import type { StepInput } from '../orchestrator/cycle-types';
import { readProject } from '../project';
import type { CycleDeps } from './cycle-deps';

/** Characters of runner output a repair gets: the end, where the failures are. */
const FAILURE_CHARS = 8000;

export interface PackExtras {
  readonly mayWrite: readonly string[];
  readonly readOnly: readonly string[];
  readonly diff?: string | null;
  readonly survivors?: ContextPack['survivors'];
}

export async function contextPack(deps: CycleDeps, input: StepInput, role: Role, step: TurnStep, extras: PackExtras): Promise<ContextPack> {
  const read = await readProject(deps.root);
  const feature = read.ok ? read.value.features.find((f) => f.id === input.feature) : undefined;
  const item = feature?.testList.find((t) => t.id === input.item) ?? null;
  const story = feature?.stories.find((s) => s.id === input.story) ?? null;
  const ac = story?.acs.find((a) => a.id === item?.acId) ?? feature?.stories.flatMap((s) => s.acs).find((a) => a.id === item?.acId) ?? null;
  const dir = join(deps.root, '.baton', 'features', input.feature);
  const failure = step === 'green' && input.failure ? failureOf(input.failure) : null;
  return {
    version: 1,
    role,
    step,
    feature: { id: input.feature, name: feature?.name ?? input.feature, description: feature?.description ?? '' },
    story: story ? { id: story.id, title: story.title, asA: story.asA, iWant: story.iWant, soThat: story.soThat } : null,
    item: item ? { id: item.id, description: item.description, kind: item.kind } : { id: input.item, description: '', kind: null },
    acceptanceCriterion: ac ? { id: ac.id, title: ac.title, given: ac.given, when: ac.when, then: ac.then } : null,
    architecture: await jsonFile(join(dir, 'architecture.json')),
    databaseDesign: await jsonFile(join(dir, 'db-design.json')),
    mayWrite: [...extras.mayWrite],
    readOnly: [...extras.readOnly],
    testCommand: deps.settings.testCommand,
    migrations: deps.settings.migrations?.path ?? null,
    attempt: input.attempt,
    round: input.round,
    failure,
    guidance: input.guidance,
    diff: extras.diff ?? null,
    ...(extras.survivors ? { survivors: extras.survivors } : {}),
  };
}

/** The failing tests (the judge's `✗ name` lines) and the output's end. */
export function failureOf(output: string): NonNullable<ContextPack['failure']> {
  const failingTests = [...new Set(output.split('\n').flatMap((l) => (/^✗ (.+)$/.exec(l.trim()) ? [l.trim().slice(2)] : [])))];
  const trimmed = output.length > FAILURE_CHARS ? `…${output.slice(-FAILURE_CHARS)}` : output;
  return { failingTests, output: trimmed };
}

async function jsonFile(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
