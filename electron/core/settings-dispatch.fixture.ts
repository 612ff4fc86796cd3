/**
 * The Settings screen's tests (agent-settings.test.ts, project-settings.test.ts) call channels as
 * every host does: a browser-host Workbench with its own config folder under `base`, a project
 * opened through `project:open`, then `call(channel, request)` through dispatch.
 */
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import type { Result } from '../../shared/result';
import { dispatch } from './dispatch';
import { createHandlers } from './handlers';
import { Workbench } from './workbench';

/** The Consort fixture: a read-only project, for the refusals. */
export const CONSORT = resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');

export async function openForSettings(base: string, path: string) {
  const handlers = createHandlers(new Workbench({ host: 'browser', version: '9.9.9', configDir: join(base, 'config') }));
  const opened = await dispatch(handlers, 'project:open', { path });
  expect(opened.ok, JSON.stringify(opened)).toBe(true);
  return (channel: string, request: unknown) => dispatch(handlers, channel, request) as Promise<Result<Record<string, unknown>>>;
}
