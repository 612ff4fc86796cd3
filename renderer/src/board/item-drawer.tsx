/**
 * The selected item in a side drawer: its fields, its feature and story, its locked test (with a way
 * to propose an amendment of it), and tabs for its AC, its cycles and its ledger records.
 */
import { cycleCovers, type Feature, type TestItem } from '../../../shared/model';
import { Tabs } from '../components/tabs';
import { ItemCycles } from './item-cycles';
import { GivenWhenThen } from '../components/gwt';
import { StoryStatusBadge, TestStatusBadge } from '../components/status-badge';
import { findItem } from '../lib/board-model';
import type { DrawerTab } from '../lib/commands';
import { ItemEvidence } from './item-evidence';
import { LockedTestSection } from './amendment-propose';
import { useStore } from '../store/store';
import { useDialogFocus } from '../components/use-dialog-focus';

/** The story that holds the item's AC: the one the reader named, else any story of the feature. */
function locateAc(feature: Feature, item: TestItem) {
  const stories = item.storyId ? [...feature.stories.filter((s) => s.id === item.storyId), ...feature.stories] : feature.stories;
  for (const story of stories) {
    const ac = story.acs.find((a) => a.id === item.acId);
    if (ac) return { story, ac };
  }
  return { story: feature.stories.find((s) => s.id === item.storyId) ?? null, ac: null };
}

export function ItemDrawer() {
  const features = useStore((s) => s.project?.features);
  const tab = useStore((s) => s.drawerTab);
  const setTab = useStore((s) => s.setDrawerTab);
  const selected = useStore((s) => s.selected);
  const select = useStore((s) => s.select);
  const close = () => select(null);
  const { ref, onKeyDown } = useDialogFocus<HTMLDivElement>(close);

  const found = features ? findItem(features, selected) : null;
  if (!found) return null;
  const { feature, item } = found;
  const { story, ac } = locateAc(feature, item);
  const titleId = 'item-drawer-title';

  return (
    <div className="drawer-backdrop" onClick={close}>
      <div
        ref={ref}
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="item-drawer"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onClick={(e) => e.stopPropagation()}
      >
        <header className="drawer-header">
          <h2 id={titleId}>
            <span className="card-id">{item.id}</span> {item.description || 'No description'}
          </h2>
          <button type="button" className="button button-quiet" onClick={close} aria-label="Close">
            ✕
          </button>
        </header>
        <dl className="fields">
          <dt>Status</dt>
          <dd>
            <TestStatusBadge status={item.status} />
          </dd>
          <dt>Kind</dt>
          <dd>{item.kind ?? 'no kind'}</dd>
          <dt>Feature</dt>
          <dd>
            {feature.name} <span className="mono muted">{feature.id}</span>
          </dd>
          <dt>Story</dt>
          <dd>
            {story ? (
              <>
                {story.title} <span className="mono muted">{story.id}</span> <StoryStatusBadge status={story.status} />
              </>
            ) : (
              <span className="muted">No story names this AC</span>
            )}
          </dd>
          {item.scenarioFile && (
            <>
              <dt>Scenario</dt>
              <dd className="mono">{item.scenarioFile}</dd>
            </>
          )}
          {item.invariantId && (
            <>
              <dt>Invariant</dt>
              <dd className="mono">{item.invariantId}</dd>
            </>
          )}
        </dl>
        <LockedTestSection feature={feature} item={item} />
        <Tabs
          label={`${item.id} details`}
          selected={tab}
          onSelect={(id) => setTab(id as DrawerTab)}
          tabs={[
            {
              id: 'ac',
              label: 'Acceptance criterion',
              content: (
                <section className="drawer-section" aria-labelledby="drawer-ac-title">
                  <h3 id="drawer-ac-title">
                    Acceptance criterion <span className="mono">{item.acId || '—'}</span>
                    {ac?.title ? ` · ${ac.title}` : ''}
                  </h3>
                  {ac ? (
                    <GivenWhenThen ac={ac} />
                  ) : (
                    <p className="muted">
                      {item.acId ? `${item.acId} is not among the acceptance criteria of ${feature.name}.` : 'This item names no acceptance criterion.'}
                    </p>
                  )}
                </section>
              ),
            },
            {
              id: 'cycles',
              label: `Cycles (${feature.cycleRuns.filter((c) => cycleCovers(c, item)).length})`,
              content: <ItemCycles feature={feature} item={item} />,
            },
            { id: 'evidence', label: 'Evidence', content: <ItemEvidence featureId={feature.id} itemId={item.id} /> },
          ]}
        />
      </div>
    </div>
  );
}
