/**
 * Specs: each feature, its stories, and their acceptance criteria as Given / When / Then, with
 * the state of the gates over them ("compare with approved" opens the diff).
 */
import { useEffect, useRef } from 'react';
import type { Feature, Gate, Story } from '../../../shared/model';
import { GateBadge } from '../components/gate-badge';
import { GateExceptionsNote } from '../components/gate-exceptions';
import { GivenWhenThen } from '../components/gwt';
import { acTitleIn } from '../lib/gate-exceptions';
import { StoryStatusBadge } from '../components/status-badge';
import { NewFeatureButton } from '../intake/new-feature-button';
import { useStore } from '../store/store';

/** The feature-level gates over the spec and what follows from it (Consort calls design "plan"). */
const SPEC_GATES = ['spec', 'plan', 'design', 'test_list'];

function GateBadges({ feature, gates, label }: { feature: Feature; gates: readonly Gate[]; label: string }) {
  if (gates.length === 0) return null;
  return (
    <ul className="gate-badges" role="list" aria-label={label}>
      {gates.map((gate, i) => (
        <li key={`${gate.name}/${gate.story ?? ''}/${i}`}>
          <GateBadge feature={feature.id} gate={gate} withName linkApproved />
        </li>
      ))}
    </ul>
  );
}

function StoryBlock({ feature, story }: { feature: Feature; story: Story }) {
  const gates = feature.gates.filter((g) => g.story === story.id);
  return (
    <article className="story" data-testid={`story-${story.id}`} aria-labelledby={`story-title-${story.id}`}>
      <header className="story-header">
        <h3 id={`story-title-${story.id}`}>
          <span className="mono muted">{story.id}</span> {story.title}
        </h3>
        <StoryStatusBadge status={story.status} />
        <GateBadges feature={feature} gates={gates} label={`Gates of story ${story.id}`} />
      </header>
      {gates.map(
        (gate, i) => gate.exceptions && <GateExceptionsNote key={`${gate.name}/${i}`} exceptions={gate.exceptions} acTitle={acTitleIn(feature, story.id)} />,
      )}
      <p className="story-narrative">
        <span className="lead-word">As a</span> {story.asA || '—'}, <span className="lead-word">I want</span> {story.iWant || '—'},{' '}
        <span className="lead-word">so that</span> {story.soThat || '—'}.
      </p>
      {story.experiment && (
        <p className="experiment">
          Experiment branch <code>{story.experiment.branch}</code>
          {story.experiment.parent && (
            <>
              {' '}
              from <code>{story.experiment.parent}</code>
            </>
          )}
          {story.experiment.status && <> · {story.experiment.status}</>}
        </p>
      )}
      {story.acs.length === 0 ? (
        <p className="muted">No acceptance criteria yet.</p>
      ) : (
        <ul className="ac-list" role="list">
          {story.acs.map((ac) => (
            <li key={ac.id} className="ac" data-testid={`ac-${ac.id}`}>
              <h4>
                <span className="mono">{ac.id}</span> {ac.title}
              </h4>
              <GivenWhenThen ac={ac} />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function FeatureBlock({ feature, selected }: { feature: Feature; selected: boolean }) {
  const gates = feature.gates.filter((g) => g.story === null && SPEC_GATES.includes(g.name));
  const heading = useRef<HTMLHeadingElement>(null);
  // The feature just created: brought into view with the focus on its name.
  useEffect(() => {
    if (!selected) return;
    heading.current?.scrollIntoView({ block: 'nearest' });
    heading.current?.focus({ preventScroll: true });
  }, [selected]);
  return (
    <section
      className={selected ? 'feature feature-selected' : 'feature'}
      data-testid={`feature-${feature.id}`}
      aria-labelledby={`feature-title-${feature.id}`}
      aria-current={selected ? 'true' : undefined}
    >
      <header className="feature-header">
        <h2 id={`feature-title-${feature.id}`} ref={heading} tabIndex={selected ? -1 : undefined}>
          {feature.name}
        </h2>
        <span className="mono muted">{feature.id}</span>
        <GateBadges feature={feature} gates={gates} label={`Gates of ${feature.name}`} />
      </header>
      {feature.description && <p className="feature-description">{feature.description}</p>}
      {feature.stories.length === 0 ? (
        <p className="muted">No stories yet — they appear once the spec is written.</p>
      ) : (
        feature.stories.map((story) => <StoryBlock key={story.id} feature={feature} story={story} />)
      )}
    </section>
  );
}

export function SpecsView() {
  const features = useStore((s) => s.project?.features);
  const focus = useStore((s) => s.specsFocus);
  if (!features || features.length === 0) {
    return (
      <div className="empty-state">
        <div className="empty-stack">
          <p>No features yet. Start one from a one-paragraph request: the Spec Author writes its spec when you run it.</p>
          <div className="specs-toolbar">
            <NewFeatureButton testId="specs-new-feature" explain primary />
          </div>
        </div>
      </div>
    );
  }
  return (
    <div className="specs-view">
      <div className="specs-toolbar" role="toolbar" aria-label="Spec actions">
        <h2 className="pane-title">
          Features <span className="muted">({features.length})</span>
        </h2>
        <span className="spacer" />
        <NewFeatureButton testId="specs-new-feature" explain />
      </div>
      {features.map((feature) => (
        <FeatureBlock key={feature.id} feature={feature} selected={feature.id === focus} />
      ))}
    </div>
  );
}
