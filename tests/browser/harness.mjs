// Shared pieces of the browser tests and benchmark: a static server for dist/ under a
// sub-path (as a static host would serve it), Debian's Chromium driven by playwright-core,
// pages that record console errors and every request they make, and the set-up every test
// file shares.
import { before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, extname, normalize } from 'node:path';
import { chromium } from 'playwright-core';

/** The sub-path the site is served from, to prove relative URLs work. */
export const BASE = '/handoff/';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `dir` at http://127.0.0.1:PORT/handoff/ ; anything else is a 404. */
export async function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(BASE)) {
      res.writeHead(404).end('outside the site');
      return;
    }
    let file = normalize(join(dir, path.slice(BASE.length) || 'index.html'));
    if (!file.startsWith(normalize(dir))) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, url: `http://127.0.0.1:${port}${BASE}`, close: () => server.close() };
}

/** Launches headless Chromium with the flags that keep it quiet on a closed network. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * A fresh page (own storage) that records console errors, page errors and requests.
 * `problems` collects what no page may produce: console errors and requests leaving the site.
 */
export async function openPage(browser, origin, options = {}) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 720 },
    acceptDownloads: true,
    ...options,
  });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') page.problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      page.problems.push(`request outside the site: ${url}`);
    }
  });
  return page;
}

/**
 * Imports `scenario` (an object, as the command line's JSON) through the page's import button
 * as the file `name`, and waits until the playground says it imported it.
 */
export async function importScenario(page, scenario, name = 'scenario.json', timeout = 30000) {
  await page.setInputFiles('[data-testid=import]', {
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await page.waitForFunction((n) => document.querySelector('[data-testid=notice]')?.textContent.includes(`Imported ${n}`), name, {
    timeout,
  });
}

/**
 * Waits until the page has what it asked its simulation worker for: no moment or reply
 * awaited (`data-waiting` on the app), and the group drawn at the clock.
 */
export async function settled(page, timeout = 30000) {
  await page.waitForFunction(
    () => {
      const stage = document.querySelector('[data-shown-at]');
      const clock = document.querySelector('[data-testid=clock]');
      return !document.querySelector('.app[data-waiting]') && (!stage || !clock || stage.dataset.shownAt === clock.textContent);
    },
    null,
    { timeout },
  );
}

/**
 * Zooms the group into its cards, if it shows its overview (a group whose cards do not fit
 * the view opens as one).
 */
export async function zoomIn(page) {
  if (await page.$('.group.overview')) {
    await page.click('[data-testid=zoom-in]');
    await page.waitForSelector('.group.placed:not(.overview)');
  }
}

/**
 * A stable group of `before` members sharing `tasks` tasks, growing to `after` at 0 ms; with
 * `standbys` replicas, stores `changelog` times the usual size, and commands at given times.
 */
export function scaleOut(before, after, tasks, { standbys = 0, events = [], changelog = 1 } = {}) {
  const members = Array.from({ length: before }, (_, i) => ({ id: `S${i + 1}` }));
  const initial = {};
  for (let t = 0; t < tasks; t++) {
    const owner = `S${(t % before) + 1}`;
    (initial[owner] ||= []).push(`T${t + 1}`);
  }
  return {
    name: `Scale out ${before} to ${after} members, ${tasks} tasks`,
    config: { restore_rate: 50000, rebalance_ms: 1000, num_standby_replicas: standbys },
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `T${i + 1}`, changelog: changelog * (20000 + ((i * 7919) % 60000)), write_rate: 50 })),
    members,
    initial,
    events: [...Array.from({ length: after - before }, (_, i) => ({ at_ms: 0, join: `S${before + i + 1}` })), ...events],
  };
}

/** The heavier scenario of issue 11: a scale-out with a standby, then a drain and a crash. */
export const HEAVY = scaleOut(45, 50, 500, {
  standbys: 1,
  // Stores four times larger than the first benchmark's, so the replay lasts long enough
  // to measure at 16x.
  changelog: 4,
  events: [
    { at_ms: 3000, drain: 'S3' },
    { at_ms: 6000, crash: 'S7' },
  ],
});

/** 300 members x 3,000 tasks scaling out, stores ten times the first benchmark's (so that
 * playing lasts a while at 16x), a drain meanwhile. */
export const LARGE = scaleOut(280, 300, 3000, { changelog: 10, events: [{ at_ms: 4000, drain: 'S5' }] });

/** 1,000 members x 10,000 tasks scaling out from 950, as LARGE, with a crash meanwhile. */
export const HUGE = scaleOut(950, 1000, 10000, {
  changelog: 10,
  events: [
    { at_ms: 4000, drain: 'S5' },
    { at_ms: 6000, crash: 'S9' },
  ],
});

/**
 * A group of `before` running instances of one thread (a fifth of the tasks stateless, the rest
 * with small stores and one standby each) that `after - before` more instances join one by
 * one, `every` ms apart, with a drain a third of the way and a crash two thirds: the learners
 * catch up within a round or two, so a rebalance comes about every simulated second. Given as
 * a topology and instances, as a reader's application would be: its share link stays short.
 */
export function churn(before, after, tasks, { every = 2000, standbys = 1 } = {}) {
  const stateless = Math.floor(tasks / 5);
  const joins = Array.from({ length: after - before }, (_, i) => ({ at_ms: i * every, join: `S${before + i + 1}` }));
  const end = (after - before) * every;
  return {
    name: `Churn: ${before} to ${after} members, ${tasks} tasks`,
    config: { num_standby_replicas: standbys, rebalance_ms: 1000, session_timeout_ms: 10000, restore_rate: 50000 },
    topology: {
      seed: 43,
      subtopologies: [
        { name: 'orders', partitions: tasks - stateless, changelog: { min: 20000, max: 80000 }, write_rate: 50 },
        { name: 'enrich', partitions: stateless, stateful: false },
      ],
    },
    instances: { count: before, threads: 1, running: true },
    events: [...joins, { at_ms: Math.floor(end / 3), drain: 'S5' }, { at_ms: Math.floor((2 * end) / 3), crash: 'S9' }].sort(
      (a, b) => a.at_ms - b.at_ms,
    ),
  };
}

/** 1,000 members x 10,000 tasks in churn: 950 running, 50 joining 2 s apart. */
export const CHURN_1000 = churn(950, 1000, 10000);

/** 2,000 members x 20,000 tasks in churn: 1,900 running, 100 joining 1 s apart. */
export const CHURN_2000 = churn(1900, 2000, 20000, { every: 1000 });

/** The value at percentile `p` (0 to 100) of `values`. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Stops the page's trace and returns the complete events (`ph` X) of its renderer's main
 * thread, with their wall (`dur`) and CPU (`tdur`) durations in microseconds: the renderer
 * that ran the playground's script (a page that navigated in the trace had another before).
 */
export async function mainThreadEvents(browser) {
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents || trace;
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const ran = new Set(
    events.filter((e) => e.name === 'FunctionCall' && String(e.args?.data?.url).includes('playground')).map((e) => e.pid),
  );
  const main = mains.find((m) => ran.has(m.pid)) || mains[0];
  return events.filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid);
}

/**
 * The tasks that ran an animation frame (the playground's frame and the browser's rendering
 * of it): whether the slow tasks are a few rounds or a broad share of every frame.
 */
export function frameTasks(runs, events) {
  const fired = events.filter((e) => e.name === 'FireAnimationFrame').map((e) => e.ts);
  let i = 0;
  return runs
    .filter((r) => r.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts)
    .filter((r) => {
      while (i < fired.length && fired[i] < r.ts) i++;
      return i < fired.length && fired[i] <= r.ts + r.dur;
    });
}

/**
 * The mean of paired differences `xs` and its standard error, written `+0.12 +- 0.05 ms`: a
 * difference within two standard errors of 0 is no difference the runs showed.
 */
export function meanAndError(xs) {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const error = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, xs.length - 1) / xs.length);
  return `${mean >= 0 ? '+' : ''}${mean.toFixed(2)} +- ${error.toFixed(2)}`;
}

/**
 * What every browser test file shares: one server for dist/ (or $DIST) and one browser for the
 * file; after each test its pages are closed, and the test fails if one reported a problem
 * (a screenshot goes to tests/browser/artifacts). Returns `page(options)`, a fresh page kept
 * for that check; `open(address, options)`, such a page at the playground (`address` after
 * its URL), once its controls are there; and `url`, the site's address.
 */
export function suite() {
  const artifacts = 'tests/browser/artifacts';
  let server;
  let browser;
  const pages = [];
  before(async () => {
    server = await serve(process.env.DIST || 'dist');
    browser = await launch();
    mkdirSync(artifacts, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  afterEach(async (t) => {
    for (const page of pages.splice(0)) {
      const problems = page.problems;
      if (problems.length) {
        await page.screenshot({ path: `${artifacts}/${t.name.replace(/\W+/g, '-')}.png` }).catch(() => {});
      }
      await page.context().close();
      assert.deepEqual(problems, [], `${t.name}: the page reported problems`);
    }
  });
  const page = async (options = {}) => {
    const p = await openPage(browser, server.origin, options);
    pages.push(p);
    return p;
  };
  return {
    page,
    async open(address = '', options = {}) {
      const p = await page(options);
      await p.goto(server.url + address);
      await p.waitForSelector('[data-testid=preset]');
      if (!address.includes('autoplay')) await settled(p);
      return p;
    },
    get url() {
      return server.url;
    },
  };
}
