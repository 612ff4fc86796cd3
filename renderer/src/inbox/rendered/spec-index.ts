/** The project's spec as the test list's grouping reads it: each AC's story, and the titles to show. */
import { useMemo } from 'react';
import type { Feature } from '../../../../shared/model';
import { useStore } from '../../store/store';
import type { SpecIndex } from './parse-test-list';

export const specIndexOf = (feature: Feature): SpecIndex => ({
  storyOfAc: new Map(feature.stories.flatMap((s) => s.acs.map((ac) => [ac.id, s.id] as const))),
  storyTitles: new Map(feature.stories.map((s) => [s.id, s.title] as const)),
  acTitles: new Map(feature.stories.flatMap((s) => s.acs.map((ac) => [ac.id, ac.title] as const))),
});

/** The index of one feature of the open project, or undefined (no feature given, or none by that id). */
export function useSpecIndex(featureId: string | undefined): SpecIndex | undefined {
  const feature = useStore((s) => (featureId === undefined ? undefined : s.project?.features.find((f) => f.id === featureId)));
  return useMemo(() => (feature ? specIndexOf(feature) : undefined), [feature]);
}
