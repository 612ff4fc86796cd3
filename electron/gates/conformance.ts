/**
 * Gate conformance read from a feature's files: the stories (with the independence each declares in
 * story.json), their acceptance criteria, the architecture's persistence invariants and the test
 * list, judged by shared/conformance.ts. Baton's layout only: a Consort project's gates follow
 * Consort's own rules.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { conformanceProblems, type ConformanceInput } from '../../shared/conformance';
import type { GateName } from '../../shared/ledger';
import type { Feature, Layout } from '../../shared/model';
import type { AppError } from '../../shared/result';
import { readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project';
import { describeRef, type GateRef, type LocatedGate } from './artifacts';

/** A JSON object from a file; null when it is missing, unreadable, not JSON or not an object. */
export const readJsonObject = async (file: string): Promise<Record<string, unknown> | null> => {
  try {
    // Followed like the reader follows links, but read only as a regular file of artifact size (a FIFO never blocks).
    const value: unknown = JSON.parse((await readRegularFile(await realpath(file), { maxBytes: MAX_ARTIFACT_BYTES })).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** What conformance judges, read from the feature folder (stories and test list as the reader read them). */
export async function conformanceInput(feature: Feature, featureDir: string, storyFolders: ReadonlyMap<string, string>): Promise<ConformanceInput> {
  const stories = await Promise.all(
    feature.stories.map(async (story) => {
      const raw = await readJsonObject(path.join(featureDir, 'stories', storyFolders.get(story.id) ?? story.id, 'story.json'));
      const independent = typeof raw?.independent === 'boolean' ? raw.independent : null;
      return { id: story.id, independent, dependsOn: strings(raw?.depends_on ?? raw?.dependsOn), acs: story.acs };
    }),
  );
  const architecture = await readJsonObject(path.join(featureDir, 'architecture.json'));
  const invariants = Array.isArray(architecture?.persistenceInvariants)
    ? architecture.persistenceInvariants.flatMap((inv: unknown) =>
        inv !== null && typeof inv === 'object' && typeof (inv as { id?: unknown }).id === 'string' ? [(inv as { id: string }).id] : [],
      )
    : [];
  return { stories, invariants, testItems: feature.testList.map((item) => ({ id: item.id, acId: item.acId, invariantId: item.invariantId })) };
}

/** The gate's conformance failures, or [] (also for a Consort project or a gate conformance does not cover). */
export async function gateConformance(located: LocatedGate, gate: GateName, layout: Layout): Promise<string[]> {
  if (layout !== 'baton' || !['spec', 'design', 'test_list'].includes(gate)) return [];
  return conformanceProblems(gate, await conformanceInput(located.feature, located.site.featureDir, located.site.stories));
}

/** Conformance as an approval blocker: every reason listed, so the person can fix them all at once. */
export const conformanceError = (ref: GateRef, problems: readonly string[]): AppError | null =>
  problems.length === 0
    ? null
    : {
        code: 'conformance',
        message: `Cannot approve ${describeRef(ref)}: it does not conform (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${problems.map((p, i) => `${i + 1}. ${p}`).join(' ')} Fix the artifacts (or send the gate back to its role with a note), then approve.`,
      };
