/** The board's filters: feature, story (of the chosen feature) and kind; native selects. */
import type { Feature } from '../../../shared/model';
import { isFiltered, KIND_FILTERS, NO_FILTERS, type KindFilter } from '../lib/board-model';
import { useStore } from '../store/store';

const NO_FEATURES: readonly Feature[] = [];

const KIND_LABELS: Record<KindFilter, string> = {
  all: 'All kinds',
  behavior: 'behavior',
  fitness: 'fitness',
  client: 'client',
  unspecified: 'unspecified',
};

export function BoardFilterBar({ shown, total }: { shown: number; total: number }) {
  const features = useStore((s) => s.project?.features ?? NO_FEATURES);
  const filters = useStore((s) => s.filters);
  const setFilters = useStore((s) => s.setFilters);
  const stories = features.find((f) => f.id === filters.feature)?.stories ?? [];

  return (
    <div className="filters" role="group" aria-label="Filters">
      <label className="filter">
        <span>Feature</span>
        <select className="select" data-testid="filter-feature" value={filters.feature ?? ''} onChange={(e) => setFilters({ feature: e.target.value || null })}>
          <option value="">All features</option>
          {features.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Story</span>
        <select
          className="select"
          data-testid="filter-story"
          value={filters.story ?? ''}
          disabled={filters.feature === null}
          title={filters.feature === null ? 'Choose a feature first' : undefined}
          onChange={(e) => setFilters({ story: e.target.value || null })}
        >
          <option value="">All stories</option>
          {stories.map((s) => (
            <option key={s.id} value={s.id}>
              {s.id} · {s.title}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span>Kind</span>
        <select className="select" data-testid="filter-kind" value={filters.kind} onChange={(e) => setFilters({ kind: e.target.value as KindFilter })}>
          {KIND_FILTERS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <span className="filter-summary" data-testid="board-summary" aria-live="polite">
        {shown === total ? `${total} items` : `${shown} of ${total} items`}
      </span>
      {isFiltered(filters) && (
        <button type="button" className="button button-quiet" onClick={() => setFilters(NO_FILTERS)}>
          Clear filters
        </button>
      )}
    </div>
  );
}
