/**
 * Which artifacts a person has opened, per gate, kept for the tab (sessionStorage): following a link
 * away and back, or reloading the page, does not make them open every artifact again. A mark names
 * the artifact *and its hash* (`viewKey`), so a changed artifact is unopened again by construction.
 * Bounded: the newest MAX_GATES gates are kept. Storage that is missing, full or holds something else
 * is treated as empty: a mark lost costs a click, never a decision.
 */
import { readJson, sessionStore, writeJson } from './session-storage';

const STORAGE_KEY = 'baton.viewed.v1';
export const MAX_GATES = 200;

type Marks = Record<string, string[]>;

const readAll = (store: Storage | null): Marks => {
  const value = readJson(store, STORAGE_KEY);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const marks: Marks = {};
  for (const [scope, keys] of Object.entries(value)) if (Array.isArray(keys)) marks[scope] = keys.filter((k): k is string => typeof k === 'string');
  return marks;
};

/** The gate's scope: the project and the gate (a story's acceptance is its own gate). */
export const marksScope = (root: string, gate: string): string => `${root}\u0000${gate}`;

/** The view keys opened for the gate in this tab. */
export const viewedMarks = (scope: string, store: Storage | null = sessionStore()): Set<string> => new Set(readAll(store)[scope] ?? []);

/** Keeps the gate's marks (this gate becomes the newest; the oldest beyond MAX_GATES go). */
export function rememberViewed(scope: string, keys: ReadonlySet<string>, store: Storage | null = sessionStore()): void {
  if (!store) return;
  const all = readAll(store);
  delete all[scope];
  if (keys.size > 0) all[scope] = [...keys];
  // Full or refused: the marks stay on screen, only not across a reload.
  writeJson(store, STORAGE_KEY, Object.fromEntries(Object.entries(all).slice(-MAX_GATES)));
}
