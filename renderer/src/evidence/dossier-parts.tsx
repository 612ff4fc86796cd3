/**
 * The story dossier's pieces on screen: a timeline line (its record's link, when, who, the verdict
 * with its icon and word, what happened, the run and the usage), an item with its cycles, a story
 * with its items. The words and figures are shared/dossier-html.ts's, so the screen and the
 * exported page say the same.
 */
import type { DossierCycle, DossierEntry, DossierItem, DossierStory, Tone } from '../../../shared/dossier';
import { itemRows, runWords, TONE_ICONS, totalsRows, usageWords } from '../../../shared/dossier-html';
import { hrefForRecord } from '../store/hash-route';

const TONE_CLASS: Readonly<Record<Tone, string>> = { good: 'success', bad: 'danger', warn: 'warning', info: 'neutral' };

export function Figures({ rows, label }: { rows: readonly (readonly [string, string])[]; label: string }) {
  return (
    <dl className="dossier-figures" aria-label={label}>
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function EntryLine({ entry: e }: { entry: DossierEntry }) {
  const run = runWords(e);
  const usage = usageWords(e);
  return (
    <li className="dossier-entry" data-testid={`dossier-entry-${e.seq}`}>
      <a className="mono" href={hrefForRecord(e.seq)} title={`Open record #${e.seq} (${e.type})`} data-testid={`dossier-record-${e.seq}`}>
        #{e.seq}
      </a>
      <span className="dossier-who">
        <time className="muted" dateTime={e.at}>
          {new Date(e.at).toLocaleString()}
        </time>
        <span>
          {e.who}
          {e.agent && <span className="muted"> ({e.agent})</span>}
        </span>
      </span>
      <span>
        {e.verdict !== null && (
          <span className={`dossier-verdict tone-${TONE_CLASS[e.tone]}`}>
            <span aria-hidden="true">{TONE_ICONS[e.tone]}</span> {e.verdict}
          </span>
        )}{' '}
        {e.says}
        {run && <span className="muted"> — {run}</span>}
        {usage && <span className="muted"> — {usage}</span>}
      </span>
    </li>
  );
}

export function Timeline({ entries, label }: { entries: readonly DossierEntry[]; label: string }) {
  if (entries.length === 0) return null;
  return (
    <ol className="dossier-timeline" aria-label={label}>
      {entries.map((e) => (
        <EntryLine key={e.seq} entry={e} />
      ))}
    </ol>
  );
}

function CycleSection({ cycle }: { cycle: DossierCycle }) {
  return (
    <section className="dossier-cycle" data-testid={`dossier-cycle-${cycle.cycle}`}>
      <h5>
        Cycle {cycle.cycle}
        {cycle.round > 1 && <span className="muted"> (round {cycle.round})</span>}
      </h5>
      <Timeline entries={cycle.entries} label={`Cycle ${cycle.cycle}`} />
    </section>
  );
}

function ItemSection({ item }: { item: DossierItem }) {
  return (
    <section className="dossier-item" data-testid={`dossier-item-${item.id}`}>
      <h4>
        {item.id} <span className="muted">{item.acId}</span>
      </h4>
      {item.description && <p>{item.description}</p>}
      <Figures rows={itemRows(item)} label={`${item.id} figures`} />
      <Timeline entries={item.entries} label={`${item.id} outside its cycles`} />
      {item.cycles.map((c) => (
        <CycleSection key={c.cycle} cycle={c} />
      ))}
      {item.cycles.length === 0 && item.entries.length === 0 && (
        <p className="muted">No cycle has run for this item yet — it starts when a run reaches it after the test_list gate.</p>
      )}
    </section>
  );
}

export function StorySection({ story }: { story: DossierStory }) {
  const name = story.id ?? 'No story';
  return (
    <section className="dossier-story" data-testid={`dossier-story-${story.id ?? 'none'}`}>
      <h3>
        {name} {story.title}{' '}
        {story.metrics && (
          <span className={`dossier-verdict tone-${story.metrics.accepted ? 'success' : 'neutral'}`}>
            {story.metrics.accepted ? '✓ accepted' : '· not accepted'}
          </span>
        )}
      </h3>
      {story.metrics && <Figures rows={totalsRows(story.metrics)} label={`${name} figures`} />}
      {story.entries.length > 0 && <h4>Decisions on the story</h4>}
      <Timeline entries={story.entries} label={`Decisions on ${name}`} />
      {story.items.length === 0 ? (
        <p className="muted">No test-list item covers this story yet.</p>
      ) : (
        story.items.map((i) => <ItemSection key={i.id} item={i} />)
      )}
    </section>
  );
}
