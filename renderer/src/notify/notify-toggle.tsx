/**
 * Turning desktop notifications on or off for this browser (use-notifications.ts). Asking the
 * browser happens only on this button's click; a person who declines is told where to change it.
 */
import { useState } from 'react';
import { permission, setTurnedOn, turnedOn } from './use-notifications';

export function NotifyToggle() {
  const [state, setState] = useState(() => ({ allowed: permission(), on: turnedOn() }));
  if (state.allowed === 'unsupported') return null;
  if (state.allowed === 'denied')
    return (
      <p className="notify-toggle muted" data-testid="notify-blocked">
        Notifications are blocked for this page: allow them in the browser&apos;s site settings to be told when something needs you.
      </p>
    );
  const on = state.allowed === 'granted' && state.on;
  const toggle = async () => {
    if (on) {
      setTurnedOn(false);
      return setState({ allowed: permission(), on: false });
    }
    const allowed = state.allowed === 'granted' ? 'granted' : await Notification.requestPermission();
    setTurnedOn(allowed === 'granted');
    setState({ allowed, on: allowed === 'granted' });
  };
  return (
    <button
      type="button"
      className="button button-quiet notify-toggle"
      data-testid="notify-toggle"
      aria-pressed={on}
      title="A desktop notification when a gate is ready, an item escalates or a run is blocked while this window is in the background"
      onClick={() => void toggle()}
    >
      {on ? 'Notifications on' : 'Notify me when something needs me'}
    </button>
  );
}
