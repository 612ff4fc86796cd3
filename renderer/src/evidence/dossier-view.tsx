/**
 * The story dossier on the Evidence screen (issue 35, part 7): the whole ledger grouped feature →
 * story → item → cycle (shared/dossier.ts), each line linking to its record, and "Export HTML",
 * which saves the very page `baton dossier` writes (shared/dossier-html.ts: one renderer of it).
 */
import { useMemo, useState } from 'react';
import { projectDossier } from '../../../shared/dossier';
import { dossierHtml, totalsRows } from '../../../shared/dossier-html';
import { ErrorBanner } from '../components/error-banner';
import { useStore } from '../store/store';
import { Figures, StorySection, Timeline } from './dossier-parts';
import { useWholeLedger } from './use-whole-ledger';

/** A file name from the project's name: letters, digits, `.`, `_` and `-` only. */
const fileName = (project: string): string => `dossier-${project.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'project'}.html`;

/** Saves `html` as a download (the browser host's, and the desktop's save dialog). */
function download(html: string, name: string): void {
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the blob by then; a minute is generous.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function DossierView() {
  const project = useStore((s) => s.project);
  const ledger = useWholeLedger();
  const [exported, setExported] = useState<string | null>(null);
  const dossier = useMemo(() => (project ? projectDossier(project.name, ledger.records, project.features) : null), [project, ledger.records]);

  if (!project || !dossier) return null;
  if (ledger.loading) return <p className="muted">Reading the ledger…</p>;
  const exportHtml = () => {
    const name = fileName(project.name);
    download(dossierHtml(dossier, { generatedAt: new Date().toISOString(), head: ledger.head, records: ledger.records.length, chain: ledger.chain }), name);
    setExported(name);
  };

  return (
    <div className="dossier" data-testid="dossier">
      {ledger.error && <ErrorBanner error={ledger.error} title="The ledger could not be read whole: the dossier shows what was read" />}
      <div className="dossier-bar">
        <p className="muted">
          Each story&apos;s items and cycles in words, oldest first, from {ledger.records.length.toLocaleString('en-US')} ledger records. Each line links to its
          record.
        </p>
        <button type="button" className="button" data-testid="dossier-export" onClick={exportHtml}>
          Export HTML
        </button>
        {exported && (
          <span className="muted" role="status" data-testid="dossier-exported">
            Saved {exported}: one page that opens offline.
          </span>
        )}
      </div>
      {dossier.features.length === 0 && (
        <div className="empty-state">
          <p>No feature yet — the dossier fills as features are specified and built.</p>
        </div>
      )}
      {dossier.features.map((f) => (
        <article key={f.id} className="dossier-feature" data-testid={`dossier-feature-${f.id}`}>
          <h2>
            {f.id} {f.name}
          </h2>
          <Figures rows={totalsRows(f.totals)} label={`${f.id} figures`} />
          {f.entries.length > 0 && <h3>Feature decisions and events</h3>}
          <Timeline entries={f.entries} label={`Decisions on ${f.id}`} />
          {f.stories.map((s) => (
            <StorySection key={s.id ?? 'none'} story={s} />
          ))}
        </article>
      ))}
    </div>
  );
}
