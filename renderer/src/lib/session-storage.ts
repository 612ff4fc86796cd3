/**
 * The tab's sessionStorage, for what a person set up in this tab (opened marks, the live run
 * panel's height): kept across reloads and links, gone with the tab. Storage that is missing,
 * refused, full or holds something else reads as nothing and writes nothing: a preference lost
 * costs a click, never a decision.
 */

/** The tab's sessionStorage, or null where it is refused (a sandboxed frame may refuse access). */
export function sessionStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** The JSON value kept under `key`, or undefined when there is none or it does not parse. */
export function readJson(store: Storage | null, key: string): unknown {
  try {
    const text = store?.getItem(key);
    return text === null || text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** Keeps `value` as JSON under `key`; a full or refusing store keeps nothing, silently. */
export function writeJson(store: Storage | null, key: string, value: unknown): void {
  try {
    store?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or refused: what is on screen stays, only not across a reload.
  }
}
