/**
 * Gives a freshly read ProjectView its gates' live state: Baton gates folded from the ledger,
 * foreign (Consort) gates as read; both re-hashed against the disk on every read, so drift shows
 * the moment an approved artifact changes. Nothing is written, whatever the layout.
 */
import type { LedgerRecord } from '../../shared/ledger';
import type { Feature, ProjectView } from '../../shared/model';
import { batonFeatureGates, foreignGate } from './gate-view';
import { featureSites } from './site';
import { foldGates } from './state';

/**
 * `records` is the ledger of a Baton project (null or empty: nothing decided yet, every gate open);
 * foreign layouts ignore it, their decisions live in their gates.json files.
 */
export const annotateGates = async (view: ProjectView, records: readonly LedgerRecord[] | null): Promise<ProjectView> => {
  const siteOf = await featureSites(view);
  const folds = view.layout === 'baton' ? foldGates(records ?? []) : null;
  const features = await Promise.all(
    view.features.map(async (feature): Promise<Feature> => {
      const site = await siteOf(feature.id);
      const gates = folds
        ? await batonFeatureGates(site, feature, folds)
        : await Promise.all(feature.gates.map((gate) => foreignGate(site, gate)));
      return { ...feature, gates };
    }),
  );
  return { ...view, features };
};
