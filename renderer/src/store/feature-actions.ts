/** Intake: a new feature from a one-paragraph request. Returns the Result so the dialog shows its error inline. */
import type { Result } from '../../../shared/result';
import { api } from '../../client';
import type { FeatureDraft } from '../lib/feature-draft';
import { hrefFor } from './hash-route';
import { useStore } from './store';

/** Sends the draft as typed (trimmed); an empty id lets main choose the default from the title. */
export function requestFeature(draft: FeatureDraft): Promise<Result<{ feature: string }>> {
  const id = draft.id.trim();
  return api.invoke('features:new', {
    title: draft.title.trim(),
    request: draft.request.trim(),
    ...(draft.attachments.length > 0 ? { attachments: draft.attachments.map(({ name, text }) => ({ name, text })) } : {}),
    ...(id ? { id } : {}),
    approver: draft.requester.trim(),
  });
}

/**
 * After main created the feature (and pushed the re-read project): the dialog closes with its draft
 * gone, the Specs screen opens on the new feature, and a notice says what comes next.
 */
export function featureCreated(feature: string): void {
  const state = useStore.getState();
  state.setFeatureDraft(null);
  state.setNewFeatureOpen(false);
  state.setSpecsFocus(feature);
  state.setNotice(`Feature ${feature} created from the request. Run it to have the Spec Author write the spec.`);
  state.setScreen('specs');
  window.location.hash = hrefFor('specs');
}
