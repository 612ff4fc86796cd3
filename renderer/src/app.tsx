/** Top level: the skeleton while booting, the boot error, the Open screen, or the workbench. */
import { ErrorBanner } from './components/error-banner';
import { Skeleton } from './components/skeleton';
import { OpenScreen } from './open/open-screen';
import { boot } from './store/actions';
import { useStore } from './store/store';
import { Workbench } from './workbench/workbench';

export function App() {
  const phase = useStore((s) => s.boot);
  const bootError = useStore((s) => s.bootError);
  const hasProject = useStore((s) => s.project !== null);
  const showOpen = useStore((s) => s.showOpen);

  if (phase === 'loading') return <Skeleton />;
  if (phase === 'failed' && bootError) {
    return (
      <main className="centered">
        <div className="boot-error">
          <h1>Baton could not load</h1>
          <ErrorBanner error={bootError} actionLabel="Retry" onAction={() => void boot()} />
        </div>
      </main>
    );
  }
  if (!hasProject || showOpen) return <OpenScreen />;
  return <Workbench />;
}
