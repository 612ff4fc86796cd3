import { describe, expect, it } from 'vitest';
import type { Feature, Gate, ProjectView, TestItem } from '../../../shared/model';
import { buildCommands, filterCommands, matchScore, RAIL_SCREENS, type CommandContext } from './commands';
import { isTextTarget, keysText, modKey, SHORTCUTS } from './shortcuts';

const gate = (name: string, status: Gate['status'], blockedBy: Gate['blockedBy'] = null): Gate => ({
  name,
  status,
  approver: null,
  approvedAt: null,
  artifacts: [],
  story: null,
  drift: [],
  note: null,
  pendingSince: '2025-03-01T00:00:00Z',
  blockedBy,
});

const item = (id: string, description: string): TestItem => ({
  id,
  description,
  acId: 'AC-1',
  storyId: null,
  status: 'pending',
  kind: 'behavior',
  scenarioFile: null,
  invariantId: null,
});

const feature = (id: string, name: string, gates: Gate[], testList: TestItem[]): Feature => ({
  id,
  name,
  description: '',
  stories: [],
  testList,
  gates,
  cycles: 0,
  cycleRuns: [],
  escalations: [],
  amendments: [],
  lockedTests: [],
  runBlock: null,
});

const view = (readOnly = false): ProjectView => ({
  root: '/p',
  name: 'p',
  layout: 'baton',
  artifactRoot: '/p/.baton',
  readOnly,
  bundle: null,
  features: [
    feature(
      'F-1',
      'Card payments',
      [gate('spec', 'approved'), gate('design', 'open')],
      [item('T1', 'Pays with a card'), item('T2', 'Refuses an expired card')],
    ),
    feature('F-2', 'Gift cards', [gate('spec', 'open', readOnly ? { kind: 'read-only', gate: null, message: 'read-only' } : null)], []),
  ],
  problems: [],
});

const CAN: CommandContext = { canChange: true, runnable: true, running: false, mod: 'Ctrl' };
const labels = (commands: readonly { label: string }[]) => commands.map((c) => c.label);

describe('buildCommands', () => {
  it('offers every screen, the actions, each decision waiting, each feature and each item with its evidence', () => {
    const commands = buildCommands(view(), CAN);
    expect(commands.filter((c) => c.group === 'Screens').map((c) => c.label)).toEqual(RAIL_SCREENS.map((s) => s.label));
    expect(labels(commands.filter((c) => c.group === 'Actions'))).toEqual([
      'New feature…',
      'Run the enforced loop',
      'Show or hide the live run',
      'Keyboard shortcuts',
      'Reload the project',
    ]);
    expect(labels(commands.filter((c) => c.group === 'Decisions'))).toEqual(['Decide the design gate of F-1', 'Decide the spec gate of F-2']);
    expect(labels(commands.filter((c) => c.group === 'Features'))).toEqual(['Switch to F-1 · Card payments', 'Switch to F-2 · Gift cards']);
    expect(commands.filter((c) => c.group === 'Items').map((c) => c.action)).toEqual([
      { kind: 'item', ref: { featureId: 'F-1', itemId: 'T1' }, tab: 'ac' },
      { kind: 'item', ref: { featureId: 'F-1', itemId: 'T1' }, tab: 'evidence' },
      { kind: 'item', ref: { featureId: 'F-1', itemId: 'T2' }, tab: 'ac' },
      { kind: 'item', ref: { featureId: 'F-1', itemId: 'T2' }, tab: 'evidence' },
    ]);
    expect(new Set(commands.map((c) => c.id)).size).toBe(commands.length);
    for (const c of commands) expect(c.id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('offers nothing that changes a read-only project, and its decisions only to read', () => {
    const commands = buildCommands(view(true), { canChange: false, runnable: false, running: false, mod: 'Cmd' });
    expect(labels(commands.filter((c) => c.group === 'Actions'))).toEqual(['Show or hide the live run', 'Keyboard shortcuts', 'Reload the project']);
    expect(commands.find((c) => c.id === 'action-toggle-run-panel')?.hint).toBe('Cmd+J');
    const decisions = labels(commands.filter((c) => c.group === 'Decisions'));
    expect(decisions.length).toBeGreaterThan(0);
    for (const label of decisions) expect(label).toMatch(/^Read /);
  });

  it('offers Stop, not Run, while a run is going on, and only the screens and actions without a project', () => {
    const running = labels(buildCommands(null, { ...CAN, running: true }));
    expect(running).toContain('Stop the run');
    expect(running).not.toContain('Run the enforced loop');
    expect(running).toHaveLength(RAIL_SCREENS.length + 5);
  });
});

describe('matchScore', () => {
  it('ranks the start of the text, then a word start, then inside a word, then letters in order', () => {
    expect(matchScore('bo', 'Board')).toBe(0);
    expect(matchScore('card', 'Pays with a card')).toBe(1);
    expect(matchScore('ard', 'Board')).toBe(2);
    expect(matchScore('bd', 'Board')).toBe(10 + 3);
    expect(matchScore('xyz', 'Board')).toBeNull();
  });

  it('needs every word typed, in any order, ignoring case', () => {
    expect(matchScore('EVIDENCE t2', 'Open evidence of T2')).toBe(1 + 1);
    expect(matchScore('t2 gift', 'Open evidence of T2')).toBeNull();
    expect(matchScore('   ', 'anything')).toBe(0);
  });
});

describe('filterCommands', () => {
  const commands = buildCommands(view(), CAN);

  it('puts the screen first when its name is typed', () => {
    for (const { label } of RAIL_SCREENS) expect(filterCommands(commands, label.toLowerCase())[0]?.label).toBe(label);
  });

  it('finds an item by its id or words, its evidence, and a gate by its name', () => {
    expect(filterCommands(commands, 'expired')[0]?.label).toBe('T2 · Refuses an expired card');
    expect(filterCommands(commands, 'evidence t1')[0]?.label).toBe('Open evidence of T1');
    expect(filterCommands(commands, 'design gate')[0]?.label).toBe('Decide the design gate of F-1');
  });

  it('ranks a match in the keywords after any in a label, keeps ties in list order, and stops at the limit', () => {
    const approve = filterCommands(commands, 'approve');
    expect(approve.map((c) => c.group)).toEqual(['Decisions', 'Decisions']);
    expect(labels(filterCommands(commands, 'card', 2))).toEqual(['Switch to F-1 · Card payments', 'Switch to F-2 · Gift cards']);
    expect(filterCommands(commands, '')).toHaveLength(Math.min(50, commands.length));
    expect(filterCommands(commands, 'zzzz')).toEqual([]);
  });
});

describe('shortcuts', () => {
  it('writes Ctrl on Linux and Windows, Cmd on macOS', () => {
    expect(modKey('Linux x86_64')).toBe('Ctrl');
    expect(modKey('Win32')).toBe('Ctrl');
    expect(modKey('MacIntel')).toBe('Cmd');
    expect(keysText(['Mod', 'K'], 'Cmd')).toBe('Cmd+K');
    expect(keysText(['↑', '↓'], 'Ctrl')).toBe('↑ / ↓');
  });

  it('leaves `?` to text fields, not to buttons or checkboxes', () => {
    expect(isTextTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTextTarget({ tagName: 'input' })).toBe(true);
    expect(isTextTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTextTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTextTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTextTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTextTarget(null)).toBe(false);
  });

  it('lists the palette, the overlay and the live run panel everywhere', () => {
    const everywhere = SHORTCUTS.find((g) => g.where === 'Everywhere')!.shortcuts.map((s) => keysText(s.keys, 'Ctrl'));
    expect(everywhere).toEqual(['Ctrl+K', '?', 'Ctrl+J', 'Esc']);
  });
});
