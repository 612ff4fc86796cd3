/**
 * The project's webhook (`notify.webhook` in .baton/project.json, issue 35 part 4): when a run stops
 * — at a gate to decide, on escalations, blocked, or done — Baton POSTs one JSON object to it, for a
 * phone (ntfy) or a team channel (Slack, Teams incoming webhooks read its `text`). The URL is a
 * secret: `env:NAME` reads it from the environment so it stays out of git, and Baton never writes it
 * to the ledger, a log or the UI — a failure names only the URL's host.
 */
import { basename } from 'node:path';
import type { RunSummary } from '../../shared/run';

/** How long a webhook may take to answer before the run goes on without it. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookMessage {
  readonly source: 'baton';
  readonly title: string;
  /** One line a person acts on; what Slack and Teams show. */
  readonly text: string;
  readonly project: string;
  readonly feature: string;
  readonly phase: string;
  readonly stoppedAt: string;
  readonly escalations: number;
  readonly blocked: boolean;
}

/** The message for a run that stopped with `summary`. */
export function runStopped(summary: RunSummary): WebhookMessage {
  const project = basename(summary.project);
  const escalations = summary.escalations.length;
  const title = summary.blocked
    ? `Baton: the run of ${summary.feature} is blocked`
    : escalations > 0
      ? `Baton: ${escalations} item${escalations === 1 ? '' : 's'} of ${summary.feature} escalated`
      : summary.phase === 'done'
        ? `Baton: ${summary.feature} is done`
        : `Baton: ${summary.feature} needs you`;
  return {
    source: 'baton',
    title,
    text: `${title} (${project}): ${summary.stoppedAt}`,
    project,
    feature: summary.feature,
    phase: summary.phase,
    stoppedAt: summary.stoppedAt,
    escalations,
    blocked: summary.blocked !== null,
  };
}

/**
 * The message for a run that started and then ended on an error. The error's own words stay out: a
 * message may quote a connection string, and a person reads the rest in the workbench.
 */
export function runFailed(root: string, feature: string): WebhookMessage {
  const project = basename(root);
  const title = `Baton: the run of ${feature} stopped on an error`;
  return {
    source: 'baton',
    title,
    text: `${title} (${project}): see \`baton status\` or the workbench for what went wrong`,
    project,
    feature,
    phase: 'failed',
    stoppedAt: 'an error',
    escalations: 0,
    blocked: false,
  };
}

/** The webhook's URL from the setting: itself, or `env:NAME`'s value; null when unset. */
export function webhookUrl(setting: string | undefined, env: NodeJS.ProcessEnv = process.env): { url: string } | { error: string } | null {
  if (!setting) return null;
  const named = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(setting);
  const url = named ? env[named[1]!] : setting;
  if (!url) return { error: `notify.webhook names the environment variable ${named![1]}, which is not set: set it, or remove notify.webhook` };
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not http');
    return { url };
  } catch {
    return { error: `notify.webhook${named ? ` (${named[1]})` : ''} is not an http(s) URL: give the webhook's full address` };
  }
}

/** The host a person may be shown; never the path or query, which hold the secret. */
const hostOf = (url: string): string => new URL(url).host;

/** POSTs `message`; resolves to null when the webhook took it (2xx), else to why not (no secret in it). */
export async function postWebhook(url: string, message: WebhookMessage, fetcher: typeof fetch = fetch): Promise<string | null> {
  try {
    const response = await fetcher(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      redirect: 'error',
    });
    await response.body?.cancel();
    return response.ok ? null : `the webhook at ${hostOf(url)} answered ${response.status}`;
  } catch (error) {
    const why = error instanceof Error && error.name === 'TimeoutError' ? `did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : 'could not be reached';
    return `the webhook at ${hostOf(url)} ${why}`;
  }
}
