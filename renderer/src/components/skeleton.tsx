/** What loading looks like: the workbench's shape in grey, announced as busy. */
export function Skeleton() {
  return (
    <div className="skeleton-shell" aria-busy="true" aria-live="polite" data-testid="loading">
      <span className="visually-hidden">Loading the project…</span>
      <div className="skeleton-rail">
        {[60, 45, 50, 55, 40].map((width, i) => (
          <div key={i} className="skeleton-line" style={{ width: `${width}%` }} />
        ))}
      </div>
      <div className="skeleton-main">
        <div className="skeleton-line skeleton-title" />
        <div className="skeleton-columns">
          {[3, 2, 4, 2, 1].map((cards, column) => (
            <div key={column} className="skeleton-column">
              {Array.from({ length: cards }, (_, i) => (
                <div key={i} className="skeleton-card" />
              ))}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
