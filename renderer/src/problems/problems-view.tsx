/** Problems: files Baton could not read, and why. */
import { Icon } from '../components/icon';
import { useStore } from '../store/store';

export function ProblemsView() {
  const problems = useStore((s) => s.project?.problems);
  if (!problems || problems.length === 0) {
    return (
      <div className="empty-state" data-testid="problems-empty">
        <p>No problems found</p>
      </div>
    );
  }
  return (
    <div className="problems-view">
      <p className="muted">Baton skipped what it could not read. Fix each file, then press Reload.</p>
      <ul className="problem-list" role="list" data-testid="problem-list">
        {problems.map((problem, i) => (
          <li key={`${problem.file}#${i}`} className="problem" data-testid="problem">
            <Icon name="warning" className="problem-icon" />
            <div>
              <code className="problem-file">{problem.file}</code>
              <p className="problem-message">{problem.message}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
