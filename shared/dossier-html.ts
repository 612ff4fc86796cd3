/**
 * The story dossier as ONE self-contained HTML page a reviewer opens offline: inline CSS (light and
 * dark from the system), no script, no image, no font, no link out; a Content-Security-Policy that
 * allows nothing else, so even a value that slipped through could load or run nothing. Every value
 * is escaped: titles, reasons and notes are written by agents and must be read as text. `baton
 * dossier`, the bundle and the Evidence screen's "Export HTML" all write this page. Pure.
 */
import type { Dossier, DossierCycle, DossierEntry, DossierFeature, DossierItem, DossierStory } from './dossier';
import type { Totals } from './metrics';

export interface DossierPageInfo {
  /** When the page was made (ISO), said in its header. */
  readonly generatedAt: string;
  readonly head: string | null;
  readonly records: number;
  /** The chain verified (true), broke (the record), or was not checked (null). */
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number } | null;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text and attribute values alike: nothing a record says can open a tag or leave an attribute. */
export const escapeHtml = (value: string | number): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const NONE = '—';
const seconds = (ms: number | null | undefined): string => (ms === null || ms === undefined ? NONE : `${(ms / 1000).toFixed(1)} s`);
const dollars = (usd: number | null | undefined): string => (usd === null || usd === undefined ? NONE : `$${usd.toFixed(4)}`);
const tokens = (i: number | null, o: number | null): string => (i === null && o === null ? NONE : `${i ?? NONE} in / ${o ?? NONE} out`);
const percent = (rate: number | null): string => (rate === null ? NONE : `${Math.round(rate * 100)}%`);
const ICONS = { good: '✓', bad: '✗', warn: '!', info: '·' } as const;

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#fff;--line:#d0d7de;--card:#f6f8fa;--good:#1a7f37;--bad:#cf222e;--warn:#9a6700;--info:#57606a}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#30363d;--card:#161b22;--good:#3fb950;--bad:#f85149;--warn:#d29922;--info:#9198a1}}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 4px;border-bottom:1px solid var(--line)}h3{font-size:16px;margin:24px 0 4px}h4{font-size:14px;margin:16px 0 4px}
.muted{color:var(--muted)}code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
section.item{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:12px 0;background:var(--card)}
ol.timeline{list-style:none;margin:4px 0;padding:0}ol.timeline li{display:grid;grid-template-columns:64px 200px 1fr;gap:8px;padding:3px 0;border-top:1px solid var(--line)}
.verdict{font-weight:600;white-space:nowrap}.good{color:var(--good)}.bad{color:var(--bad)}.warn{color:var(--warn)}.info{color:var(--info)}
dl.figures{display:flex;flex-wrap:wrap;gap:4px 20px;margin:4px 0}dl.figures div{display:flex;gap:6px}dl.figures dt{color:var(--muted)}dl.figures dd{margin:0}
nav ul{margin:4px 0;padding-left:20px}a{color:inherit}
`;

const timeOf = (at: string): string => at.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

/** The test run behind an entry's verdict, in words; null when none ran. */
export const runWords = (e: DossierEntry): string | null =>
  e.run ? `test run: ${e.run.passed} passed, ${e.run.failed} failed, ${e.run.errored} errored, ${e.run.skipped} skipped in ${seconds(e.run.ms)}` : null;
/** The turn's tokens and cost as its agent reported them; null when it reported none. */
export const usageWords = (e: DossierEntry): string | null =>
  e.usage ? `${tokens(e.usage.inputTokens, e.usage.outputTokens)} tokens, ${dollars(e.usage.costUsd)}` : null;
export const TONE_ICONS = ICONS;

function entryHtml(e: DossierEntry): string {
  const verdict = e.verdict === null ? '' : `<span class="verdict ${e.tone}">${ICONS[e.tone]} ${escapeHtml(e.verdict)}</span> `;
  const agent = e.agent === null ? '' : ` <span class="muted">(${escapeHtml(e.agent)})</span>`;
  const ran = runWords(e);
  const run = ran === null ? '' : ` <span class="muted">— ${escapeHtml(ran)}</span>`;
  const used = usageWords(e);
  const usage = used === null ? '' : ` <span class="muted">— ${escapeHtml(used)}</span>`;
  return (
    `<li id="record-${e.seq}"><span class="mono" title="${escapeHtml(e.hash)}">#${e.seq}</span>` +
    `<span><span class="muted">${escapeHtml(timeOf(e.at))}</span><br><span data-who="${escapeHtml(e.whoKind)}">${escapeHtml(e.who)}</span>${agent}</span>` +
    `<span>${verdict}${escapeHtml(e.says)}${run}${usage} <span class="muted mono">${escapeHtml(e.type)}</span></span></li>`
  );
}

const timeline = (entries: readonly DossierEntry[]): string => (entries.length ? `<ol class="timeline">${entries.map(entryHtml).join('')}</ol>` : '');

type Rows = readonly (readonly [string, string])[];

function figures(rows: Rows): string {
  return `<dl class="figures">${rows.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>`;
}

/** A story's or feature's figures (shared/metrics.ts's totals), label and value. */
export const totalsRows = (t: Totals): Rows => [
  ['Items done', `${t.done} of ${t.items}`],
  ['Cycle time', seconds(t.cycleTimeMs)],
  ['Agent time', seconds(t.agentMs)],
  ['Test runs', seconds(t.testRunMs)],
  ['First-pass GREEN', percent(t.firstPassGreenRate)],
  ['Repairs', t.counts ? String(t.counts.repairs) : NONE],
  ['Violations', t.counts ? String(t.counts.violations) : NONE],
  ['Tokens', tokens(t.usage.inputTokens, t.usage.outputTokens)],
  ['Cost', dollars(t.usage.costUsd)],
];
const totalsFigures = (t: Totals): string => figures(totalsRows(t));

const cycleHtml = (c: DossierCycle): string =>
  `<h4>Cycle ${escapeHtml(c.cycle)}${c.round > 1 ? ` <span class="muted">(round ${c.round})</span>` : ''}</h4>${timeline(c.entries)}`;

/** An item's figures (shared/metrics.ts's), label and value. */
export function itemRows(item: DossierItem): Rows {
  const m = item.metrics;
  return m
    ? [
        ['Status', item.status ?? NONE],
        ['Rounds', String(m.rounds)],
        ['Cycle time', seconds(m.cycleTimeMs)],
        ['Repairs', m.counts ? String(m.counts.repairs) : NONE],
        ['Violations', m.counts ? String(m.counts.violations) : NONE],
        ['Escalations', String(m.escalations.length)],
        ['Tokens', tokens(m.usage.inputTokens, m.usage.outputTokens)],
        ['Cost', dollars(m.usage.costUsd)],
        ['Mutation score', m.mutation?.score == null ? NONE : percent(m.mutation.score)],
      ]
    : [['Status', item.status ?? NONE]];
}

function itemHtml(item: DossierItem, feature: string): string {
  const stats = figures(itemRows(item));
  const empty = item.cycles.length === 0 && item.entries.length === 0 ? '<p class="muted">No cycle has run for this item yet.</p>' : '';
  return (
    `<section class="item" id="${escapeHtml(`${feature}-${item.id}`)}"><h3>${escapeHtml(item.id)} <span class="muted">${escapeHtml(item.acId)}</span></h3>` +
    `<p>${escapeHtml(item.description)}</p>${stats}${timeline(item.entries)}${item.cycles.map(cycleHtml).join('')}${empty}</section>`
  );
}

function storyHtml(s: DossierStory, feature: string): string {
  const accepted = s.metrics ? (s.metrics.accepted ? '<span class="verdict good">✓ accepted</span>' : '<span class="verdict info">· not accepted</span>') : '';
  const items = s.items.length ? s.items.map((i) => itemHtml(i, feature)).join('') : '<p class="muted">No test-list item covers this story.</p>';
  const decisions = s.entries.length ? `<h4>Decisions on the story</h4>${timeline(s.entries)}` : '';
  return (
    `<section class="story" id="${escapeHtml(`${feature}-${s.id ?? 'no-story'}`)}"><h2>${escapeHtml(s.id ?? 'No story')} ${escapeHtml(s.title)} ${accepted}</h2>` +
    `${s.metrics ? totalsFigures(s.metrics) : ''}${decisions}${items}</section>`
  );
}

function featureHtml(f: DossierFeature): string {
  const own = f.entries.length ? `<h2>Feature decisions and events</h2>${timeline(f.entries)}` : '';
  return (
    `<article class="feature" id="${escapeHtml(f.id)}"><h1>${escapeHtml(f.id)} ${escapeHtml(f.name)}</h1>` +
    `<p class="muted">${f.records} ledger records about this feature.</p>${totalsFigures(f.totals)}${own}${f.stories.map((s) => storyHtml(s, f.id)).join('')}</article>`
  );
}

function contents(d: Dossier): string {
  const story = (f: DossierFeature, s: DossierStory) =>
    `<li><a href="#${escapeHtml(`${f.id}-${s.id ?? 'no-story'}`)}">${escapeHtml(s.id ?? 'No story')} ${escapeHtml(s.title)}</a> (${s.items.length} ${s.items.length === 1 ? 'item' : 'items'})</li>`;
  return `<nav><ul>${d.features.map((f) => `<li><a href="#${escapeHtml(f.id)}">${escapeHtml(f.id)} ${escapeHtml(f.name)}</a><ul>${f.stories.map((s) => story(f, s)).join('')}</ul></li>`).join('')}</ul></nav>`;
}

function chainWords(info: DossierPageInfo): string {
  if (info.chain === null) return 'The chain was not verified for this page: run <code>baton verify</code>.';
  if (info.chain.ok) return '<span class="verdict good">✓ intact</span>: every record&#39;s hash links to the one before.';
  return `<span class="verdict bad">✗ broken</span> at record #${escapeHtml(info.chain.brokenAt ?? '?')}: what follows may rest on altered records.`;
}

/** The whole page. */
export function dossierHtml(d: Dossier, info: DossierPageInfo): string {
  const body = d.features.length ? d.features.map(featureHtml).join('') : '<p>No feature yet: the dossier fills as features are specified and built.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dossier — ${escapeHtml(d.project)}</title><style>${CSS}</style></head>
<body><header><p class="muted">Baton story dossier</p><h1>${escapeHtml(d.project)}</h1>
<p class="muted">Made ${escapeHtml(timeOf(info.generatedAt))} from ${info.records} ledger records, head <span class="mono">${escapeHtml(info.head ?? 'none')}</span>. Chain: ${chainWords(info)}</p>
<p class="muted">Each line is one ledger record (#seq; its hash on hover): check any of them with <code>baton log</code> and the whole with <code>baton verify</code>.</p>
${contents(d)}</header>
<main>${body}</main></body></html>
`;
}
