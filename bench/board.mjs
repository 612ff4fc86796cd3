#!/usr/bin/env node
// `npm run bench:board`: the Board at scale (issue 17, "fast enough to live in"). Makes a project
// with N test items besides consort-shop's 14 (default 2,000; e2e/browser/support/large-project.ts),
// serves it with `baton serve`, and drives the system Chromium through playwright. It builds
// nothing: run `npm run -s build` first. Prints one JSON document (progress goes to stderr); it is a
// benchmark, not a test (STYLE.md 17): it never fails on a figure.
//   firstRenderMs   another view → Board, until every column's visible cards are painted (goal 300)
//   filterChangeMs  kind filter changed, until the narrowed board is painted (goal 100)
//   drawerOpenMs    a card clicked, until its drawer is painted (goal 100)
//   longestTaskMs   the longest main-thread task during the three above, by phase (longtask
//                   PerformanceObserver; goal 100); the Specs view's, visited between first
//                   renders, apart as specsViewLongestTaskMs
//   coldLoadMs      page load → Board painted, the project read over the host included (no goal),
//                   with the longest task of the last load as coldLoadLongestTaskMs
// Usage: node bench/board.mjs [--items N] [--samples N]
//        BATON_CHROMIUM names the browser (default /usr/bin/chromium).
/* global window, document, requestAnimationFrame -- the functions passed to page.evaluate run in the page */
import { register } from 'tsx/esm/api';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarize } from './summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const index = path.join(root, 'dist', 'renderer', 'index.html');
if (!existsSync(index)) {
  console.error(`bench:board: ${index} is missing. This benchmark builds nothing: run \`npm run -s build\` first.`);
  process.exit(2);
}

const { values } = parseArgs({ options: { items: { type: 'string', default: '2000' }, samples: { type: 'string', default: '5' } } });
const count = Number(values.items);
const samples = Number(values.samples);
if (![count, samples].every((n) => Number.isInteger(n) && n > 0)) {
  console.error('usage: node bench/board.mjs [--items N] [--samples N]  (whole numbers above 0)');
  process.exit(2);
}

register();
const { FIXTURE_ITEMS, makeLargeProject } = await import('../e2e/browser/support/large-project.ts');
const { serve } = await import('../e2e/browser/support/serve.ts');
const { chromium } = await import('@playwright/test');

const GOALS = { firstRenderMs: 300, filterChangeMs: 100, drawerOpenMs: 100, longestTaskMs: 100 };
const STATUSES = ['pending', 'red', 'green', 'refactored', 'escalated', 'skipped'];

/**
 * Runs in the page before its scripts: collects long tasks, and `__bench.time(act, done)` runs
 * `act`, then waits for `done()` to hold in an animation frame and for that frame to be painted
 * (a task after it), and returns the milliseconds since `act` started.
 */
function pageHelpers(statuses) {
  const longTasks = [];
  new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: true });
  const byTestId = (id, scope = document) => scope.querySelector(`[data-testid="${id}"]`);
  /** Every column is there, and each non-empty one shows cards down to its bottom edge (or all of them). */
  const boardPainted = () =>
    statuses.every((status) => {
      const column = byTestId(`column-${status}`);
      const total = Number(byTestId(`column-count-${status}`, column ?? document)?.textContent ?? NaN);
      if (!column || !Number.isFinite(total)) return false;
      if (total === 0) return true;
      const cards = column.querySelectorAll('button.card');
      if (cards.length === 0) return false;
      if (cards.length >= total) return true;
      // The column's visible bottom edge: a windowed column renders cards past it, a full one all of them.
      const bottom = Math.min(column.getBoundingClientRect().bottom, window.innerHeight) - 16;
      return Array.from(cards).some((card) => card.getBoundingClientRect().bottom >= bottom);
    });
  const time = (act, done) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const deadline = started + 30_000;
      const check = () => {
        if (done()) setTimeout(() => resolve(performance.now() - started), 0);
        else if (performance.now() > deadline) reject(new Error(`not painted within 30 s: ${done}`));
        else requestAnimationFrame(check);
      };
      act();
      requestAnimationFrame(check);
    });
  window.__bench = { longTasks, byTestId, boardPainted, time };
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const figure = (xs, goal) => {
  const p50 = Math.round(median(xs));
  return { p50, max: Math.round(Math.max(...xs)), samples: xs.map(Math.round), ...(goal === undefined ? {} : { goal, met: p50 <= goal }) };
};

const scratch = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-board-'));
let served = null;
let browser = null;
try {
  console.error(`bench:board: making a project with ${count} items in ${scratch}`);
  const { dir } = makeLargeProject(scratch, count);
  // consort-shop's own items are on the board too.
  const total = count + FIXTURE_ITEMS;
  const configDir = path.join(scratch, 'host-config');
  mkdirSync(configDir);
  served = await serve(dir, { BATON_CONFIG_DIR: configDir });
  browser = await chromium.launch({
    executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(pageHelpers, STATUSES);

  const cold = [];
  for (let i = 0; i < samples; i++) {
    console.error(`  cold load ${i + 1}/${samples}`);
    await page.goto(served.url);
    await page.waitForFunction((n) => window.__bench.byTestId('board-summary')?.textContent === `${n} items` && window.__bench.boardPainted(), total, {
      polling: 'raf',
      timeout: 60_000,
    });
    cold.push(await page.evaluate(() => performance.now()));
  }
  const columns = await page.evaluate((statuses) => statuses.map((s) => [s, Number(window.__bench.byTestId(`column-count-${s}`).textContent)]), STATUSES);
  console.error(`  columns: ${columns.map(([s, n]) => `${s} ${n}`).join(', ')}`);
  const filled = columns.filter(([, n]) => n > 0).map(([s]) => s);
  // Long tasks are counted by phase from here: the page is loaded, and a person is using the Board.
  const takeTasks = () => page.evaluate(() => window.__bench.longTasks.splice(0));
  const settle = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  const loadTasks = await takeTasks();
  const tasks = { firstRender: [], filterChange: [], drawerOpen: [], specsView: [] };

  const first = [];
  for (let i = 0; i < samples; i++) {
    console.error(`  first render ${i + 1}/${samples}`);
    await page.getByTestId('nav-specs').click();
    await page.getByTestId('column-pending').waitFor({ state: 'detached' });
    // The Specs view's own tasks are not the Board's.
    await settle();
    tasks.specsView.push(...(await takeTasks()));
    first.push(
      await page.evaluate(() =>
        window.__bench.time(
          () => window.__bench.byTestId('nav-board').click(),
          () => window.__bench.boardPainted(),
        ),
      ),
    );
    await settle();
    tasks.firstRender.push(...(await takeTasks()));
  }

  const filter = [];
  for (let i = 0; i < samples * 2; i++) {
    const kind = i % 2 === 0 ? 'fitness' : 'all';
    const summary = kind === 'all' ? `^${total} items$` : `^\\d+ of ${total} items$`;
    console.error(`  filter change ${i + 1}/${samples * 2} (kind ${kind})`);
    filter.push(
      await page.evaluate(
        ({ kind, summary }) => {
          const { byTestId, boardPainted, time } = window.__bench;
          const select = byTestId('filter-kind');
          const act = () => {
            select.value = kind;
            select.dispatchEvent(new Event('change', { bubbles: true }));
          };
          return time(act, () => new RegExp(summary).test(byTestId('board-summary')?.textContent ?? '') && boardPainted());
        },
        { kind, summary },
      ),
    );
  }
  await settle();
  tasks.filterChange.push(...(await takeTasks()));

  const drawer = [];
  for (let i = 0; i < samples; i++) {
    console.error(`  drawer ${i + 1}/${samples}`);
    const column = filled[i % filled.length];
    drawer.push(
      await page.evaluate((column) => {
        const { byTestId, time } = window.__bench;
        const card = byTestId(`column-${column}`).querySelector('button.card');
        return time(
          () => card.click(),
          () => byTestId('item-drawer') !== null,
        );
      }, column),
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('item-drawer').waitFor({ state: 'detached' });
  }
  await settle();
  tasks.drawerOpen.push(...(await takeTasks()));
  const longest = (xs) => Math.round(Math.max(0, ...xs));
  const boardTasks = [...tasks.firstRender, ...tasks.filterChange, ...tasks.drawerOpen];

  const [load1, load5] = os.loadavg();
  const result = {
    items: total,
    samples,
    firstRenderMs: figure(first, GOALS.firstRenderMs),
    filterChangeMs: figure(filter, GOALS.filterChangeMs),
    drawerOpenMs: figure(drawer, GOALS.drawerOpenMs),
    longestTaskMs: {
      max: longest(boardTasks),
      tasks: boardTasks.length,
      byPhase: { firstRender: longest(tasks.firstRender), filterChange: longest(tasks.filterChange), drawerOpen: longest(tasks.drawerOpen) },
      goal: GOALS.longestTaskMs,
      met: longest(boardTasks) <= GOALS.longestTaskMs,
    },
    coldLoadMs: figure(cold),
    coldLoadLongestTaskMs: longest(loadTasks),
    specsViewLongestTaskMs: longest(tasks.specsView),
    machine: { cpus: os.cpus().length, loadAverage: { '1m': Number(load1.toFixed(2)), '5m': Number(load5.toFixed(2)) }, chromium: browser.version() },
  };
  const atP50 = (name, label) => ({
    figure: `${label}, p50 (${total} items)`,
    value: result[name].p50,
    unit: 'ms',
    goal: `≤ ${GOALS[name]} ms`,
    met: result[name].met,
  });
  summarize('board', [
    atP50('firstRenderMs', 'first render'),
    atP50('filterChangeMs', 'filter change'),
    atP50('drawerOpenMs', 'drawer open'),
    { figure: 'longest main-thread task', value: result.longestTaskMs.max, unit: 'ms', goal: `≤ ${GOALS.longestTaskMs} ms`, met: result.longestTaskMs.met },
    { figure: 'cold load, p50', value: result.coldLoadMs.p50, unit: 'ms' },
  ]);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await browser?.close();
  await served?.stop();
  rmSync(scratch, { recursive: true, force: true });
}
