/**
 * What makes a design role's artifact acceptable beyond its schema: the Spec Author's spec must
 * already pass the spec gate's conformance; the Architect's ids must be unique; the Test
 * Strategist's list must cover every AC and persistence invariant of the approved spec and design,
 * hold at least one fitness item when the architecture names a non-functional requirement, and put
 * each item under the story its AC belongs to. Refused here, the role gets the same words back.
 */
import path from 'node:path';
import { conformanceProblems } from '../../shared/conformance';
import { validateDesignArtifact, type DesignArtifact, type DesignRole, type Validated } from '../../shared/design-artifacts';
import type { Feature } from '../../shared/model';
import { conformanceInput, readJsonObject } from '../gates/conformance';
import { storyFolders } from '../gates/locate';
import {} from './design-files';

const dupes = (ids: readonly string[]): string[] => [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];

async function extraProblems<R extends DesignRole>(role: R, artifact: DesignArtifact<R>, feature: Feature | null, featureDir: string): Promise<string[]> {
  switch (role) {
    case 'specAuthor': {
      const spec = artifact as DesignArtifact<'specAuthor'>;
      const stories = spec.stories.map((s) => ({ id: s.id, independent: s.independent, dependsOn: s.depends_on, acs: s.acceptance_criteria }));
      const storyDupes = dupes(spec.stories.map((s) => s.id)).map((id) => `Story id ${id} is used twice: story ids must be unique.`);
      return [...storyDupes, ...conformanceProblems('spec', { stories, invariants: [], testItems: null })];
    }
    case 'architectReviewer': {
      const arch = artifact as DesignArtifact<'architectReviewer'>;
      const ids = [...arch.nonFunctional.map((n) => n.id), ...arch.persistenceInvariants.map((p) => p.id)];
      return dupes(ids).map((id) => `The id ${id} is used twice among the non-functional requirements and persistence invariants: ids must be unique.`);
    }
    case 'testStrategist': {
      const list = artifact as DesignArtifact<'testStrategist'>;
      if (feature === null) return ['The feature could not be read, so the test list cannot be checked against its spec: fix the project first.'];
      const input = await conformanceInput(feature, featureDir, await storyFolders(featureDir));
      const items = list.items.map((i) => ({ id: i.id, acId: i.ac_id, invariantId: i.invariant_id ?? null }));
      const problems = dupes(list.items.map((i) => i.id)).map((id) => `Test id ${id} is used twice: test ids must be unique.`);
      problems.push(
        ...conformanceProblems('test_list', { ...input, testItems: items }).filter((p) => !input.testItems || !p.startsWith('The test list is empty')),
      );
      const architecture = await readJsonObject(path.join(featureDir, 'architecture.json'));
      const nfrs = Array.isArray(architecture?.['nonFunctional']) ? architecture['nonFunctional'].length : 0;
      if (nfrs > 0 && !list.items.some((i) => i.kind === 'fitness'))
        problems.push('The test list has no fitness item: the architecture names non-functional requirements, so at least one item must be of kind "fitness".');
      for (const item of list.items) {
        const owner = feature.stories.find((s) => s.acs.some((ac) => ac.id === item.ac_id));
        if (owner && owner.id !== item.story)
          problems.push(`Test ${item.id} is filed under story ${item.story}, but ${item.ac_id} belongs to story ${owner.id}.`);
      }
      return problems;
    }
    default:
      return [];
  }
}

/** The artifact, or every reason it is refused (schema first, then the cross-checks). */
export async function judgeArtifact<R extends DesignRole>(
  role: R,
  raw: string | null,
  feature: Feature | null,
  featureDir: string,
): Promise<Validated<DesignArtifact<R>>> {
  const parsed = validateDesignArtifact(role, raw);
  if (!parsed.ok) return parsed;
  const problems = await extraProblems(role, parsed.value, feature, featureDir);
  return problems.length > 0 ? { ok: false, problems } : parsed;
}
