/**
 * Dialog keyboard behaviour: focus moves in on open (to the `[data-autofocus]` control when there
 * is one) and back to where it was on close, Escape closes, and Tab cycles inside the dialog.
 * Dialogs stack (the shortcuts over a drawer, the palette over it): Escape closes the top one only.
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/** The open dialogs, the one opened last on top. */
const open: object[] = [];

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function useDialogFocus<T extends HTMLElement>(
  onClose: () => void,
): {
  ref: RefObject<T | null>;
  onKeyDown: (event: KeyboardEvent) => void;
} {
  const ref = useRef<T>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const self = {};
    open.push(self);
    // A dialog may name the control a person types into first (data-autofocus); else the dialog.
    const initial = ref.current?.querySelector<HTMLElement>('[data-autofocus]');
    (initial ?? ref.current)?.focus();
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && open.at(-1) === self) {
        event.preventDefault();
        close.current();
      }
    };
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('keydown', onEscape);
      open.splice(open.indexOf(self), 1);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === ref.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return { ref, onKeyDown };
}
