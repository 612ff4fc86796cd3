/** The `?` overlay: every keyboard shortcut of the workbench, from the one list in lib/shortcuts.ts. */
import { Dialog } from '../components/dialog';
import { hostModKey, SHORTCUTS, type ShortcutGroup } from '../lib/shortcuts';
import { useStore } from '../store/store';

export function ShortcutsList({ groups, mod }: { groups: readonly ShortcutGroup[]; mod: string }) {
  return (
    <div className="shortcuts" data-testid="shortcuts-list">
      {groups.map((group) => (
        <section key={group.where} className="shortcuts-group" aria-label={group.where}>
          <h3>{group.where}</h3>
          <dl>
            {group.shortcuts.map((s) => (
              <div key={s.keys.join('+')} className="shortcut" data-testid="shortcut">
                <dt>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && (s.keys[0] === 'Mod' ? '+' : ' / ')}
                      <kbd>{k === 'Mod' ? mod : k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{s.does}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

export function ShortcutsOverlay() {
  const open = useStore((s) => s.shortcutsOpen);
  const setOpen = useStore((s) => s.setShortcutsOpen);
  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <Dialog
      title="Keyboard shortcuts"
      testId="shortcuts-overlay"
      className="dialog-wide"
      onClose={close}
      onSubmit={close}
      actions={
        <button type="submit" className="button" data-autofocus data-testid="shortcuts-close">
          Close
        </button>
      }
    >
      <ShortcutsList groups={SHORTCUTS} mod={hostModKey()} />
    </Dialog>
  );
}
