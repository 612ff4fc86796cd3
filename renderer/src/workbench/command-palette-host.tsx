/** The command palette over the workbench, with the open project's commands and what they do. */
import { useMemo } from 'react';
import { readOnlyReason } from '../../../shared/read-only';
import { buildCommands } from '../lib/commands';
import { hostModKey } from '../lib/shortcuts';
import { runCommand } from '../store/command-actions';
import { useStore } from '../store/store';
import { CommandPalette } from './command-palette';

export function CommandPaletteHost() {
  const open = useStore((s) => s.paletteOpen);
  const setOpen = useStore((s) => s.setPaletteOpen);
  const project = useStore((s) => s.project);
  const running = useStore((s) => s.run.running);
  const commands = useMemo(() => {
    const canChange = project ? readOnlyReason(project, 'changes') === null : false;
    const runnable = project !== null && project.layout === 'baton' && !project.readOnly && !project.bundle;
    return buildCommands(project, { canChange, runnable, running, mod: hostModKey() });
  }, [project, running]);
  if (!open) return null;
  return (
    <CommandPalette
      commands={commands}
      onClose={() => setOpen(false)}
      onRun={(command) => {
        setOpen(false);
        runCommand(command.action);
      }}
    />
  );
}
