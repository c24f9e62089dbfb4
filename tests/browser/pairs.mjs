// Paired runs of two builds (run scripts/build-site.sh for each first):
//   DIST=old-dist,dist node tests/browser/pairs.mjs        eight pairs of five seconds
//   PAIRS=12 SECONDS=5 CSS='canvas.motion{display:none}' DIST=dist,dist node tests/browser/pairs.mjs
// Each pair plays the heavy scenario (50 x 500 scaling out, a standby, a drain and a crash) at
// 16x in a fresh page of each build, one after the other, the first of the pair alternating,
// and reports the second minus the first, pair by pair: its mean and standard error, for the
// main thread's CPU time of frame tasks (mean and p95), of all tasks (p95), and of the browser's
// stages a frame (style, layout, paint, layers and commit). A short pair sees the machine
// alike for both builds, so a change of a few tenths of a millisecond shows, where the rounds
// of bench.mjs (minutes apart) drift by more. `CSS` is added to the second build's pages only:
// an upper bound of what a part of the page costs, hidden. Measurements, not tests.
import {
  serve, launch, openPage, importScenario, HEAVY, percentile, mainThreadEvents, frameTasks, meanAndError,
} from './harness.mjs';

const DISTS = (process.env.DIST || '').split(',');
if (DISTS.length !== 2) {
  console.error('pairs: name two builds, DIST=first,second');
  process.exit(2);
}
const PAIRS = Number(process.env.PAIRS || 8);
const SECONDS = Number(process.env.SECONDS || 5);
const CSS = process.env.CSS || '';

const browser = await launch();
const servers = new Map();

/** One run of a build: the heavy scenario played at 16x for SECONDS, traced. */
async function run(dist, css) {
  if (!servers.has(dist)) servers.set(dist, await serve(dist));
  const server = servers.get(dist);
  const page = await openPage(browser, server.origin);
  if (css) {
    await page.addInitScript((text) => {
      document.addEventListener('DOMContentLoaded', () => {
        const style = document.createElement('style');
        style.textContent = text;
        document.head.append(style);
      });
    }, css);
  }
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=member]', { state: 'attached' });
  await importScenario(page, HEAVY, 'bench.json', 120000);
  await page.selectOption('[data-testid=speed]', '16');
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.click('[data-testid=play]');
  await page.waitForTimeout(SECONDS * 1000);
  const own = await mainThreadEvents(browser);
  await page.close();
  const tasks = own.filter((e) => e.name === 'RunTask' && e.dur >= 50 && e.tdur !== undefined);
  const cpu = (e) => (e.tdur ?? e.dur) / 1000;
  const frames = frameTasks(tasks, own).map(cpu);
  const stage = (names) => own.filter((e) => names.includes(e.name)).reduce((a, e) => a + cpu(e), 0) / frames.length;
  return {
    'frame tasks, mean': frames.reduce((a, b) => a + b, 0) / frames.length,
    'frame tasks, p95': percentile(frames, 95),
    'all tasks, p95': percentile(tasks.map(cpu), 95),
    'style a frame': stage(['UpdateLayoutTree']),
    'layout a frame': stage(['Layout']),
    'paint a frame': stage(['PrePaint', 'Paint']),
    'layers and commit a frame': stage(['Layerize', 'Commit']),
  };
}

const differences = {};
for (let k = 0; k < PAIRS; k++) {
  const first = k % 2 === 0;
  const b = first ? null : await run(DISTS[1], CSS);
  const a = await run(DISTS[0], '');
  const second = b || (await run(DISTS[1], CSS));
  for (const [name, value] of Object.entries(second)) (differences[name] ||= []).push(value - a[name]);
  console.log(`pair ${k + 1}: frame tasks' mean ${a['frame tasks, mean'].toFixed(2)} -> ${second['frame tasks, mean'].toFixed(2)} ms, all tasks' p95 ${a['all tasks, p95'].toFixed(2)} -> ${second['all tasks, p95'].toFixed(2)} ms`);
}
console.log(`${DISTS[1]}${CSS ? ` with ${CSS}` : ''} minus ${DISTS[0]}, ${PAIRS} pairs of ${SECONDS} s: mean +- standard error`);
for (const [name, xs] of Object.entries(differences)) console.log(`${name.padEnd(28)} ${meanAndError(xs)} ms`);
await browser.close();
process.exit(0);
