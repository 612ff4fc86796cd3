/** What just happened (a feature created) and what to do next, over the screen until dismissed. */
import { Icon } from '../components/icon';
import { useStore } from '../store/store';

export function NoticeBanner() {
  const notice = useStore((s) => s.notice);
  const setNotice = useStore((s) => s.setNotice);
  if (!notice) return null;
  return (
    <div className="banner-slot">
      <div className="notice-banner" role="status" data-testid="status-message">
        <Icon name="green" />
        <p>{notice}</p>
        <button type="button" className="button button-quiet" onClick={() => setNotice(null)}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
