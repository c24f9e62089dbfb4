// The sweep panel (issue 44): a setting of the review example at several values under each
// strategy, run on the browser's workers, filling the table and the charts while the page's
// main thread never blocks over 50 ms; a cancel stops it; a cell opens its run in the compare
// view; the question survives a reload. Run with the other browser tests (see README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { suite, importScenario, settled } from './harness.mjs';

const site = suite();
const REVIEW = JSON.parse(readFileSync('scenarios/review/scale-out-under-load.json', 'utf8'));
/** The four strategies the budget is stated for (the playground may offer more). */
const FOUR = ['learner', 'kip441', 'cooperative', 'eager'];

/** The review example in the sweep view, its long tasks recorded from the start. */
async function sweepPage() {
  const page = await site.page();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(site.url);
  await page.waitForSelector('[data-testid=preset]');
  await settled(page);
  await importScenario(page, REVIEW, 'review.json');
  await settled(page);
  await page.click('[data-testid=sweep-toggle]');
  await page.waitForSelector('[data-testid=sweep]');
  for (const box of await page.$$('[data-testid=sweep-strategy]')) {
    const on = FOUR.includes(await box.getAttribute('data-strategy'));
    if ((await box.isChecked()) !== on) await box.click();
  }
  return page;
}

/** Picks setting `i` and types its values. */
async function sweepOf(page, i, setting, values) {
  await page.selectOption(`[data-testid=sweep-setting-${i}]`, setting);
  await page.fill(`[data-testid=sweep-values-${i}]`, values);
}

const progress = (page) =>
  page.$eval('[data-testid=sweep-progress]', (p) => [Number(p.dataset.done), Number(p.dataset.all)]);

test('a 3 x 4 sweep of the review example fills its table and charts off the page\'s thread', async () => {
  const page = await sweepPage();
  // A value as typed is kept, and a problem named beside its field.
  await sweepOf(page, 0, 'num_standby_replicas', '0,1,x');
  await page.waitForSelector('[data-testid=sweep-problem]');
  assert.match(await page.textContent('[data-testid=sweep-problem]'), /^num_standby_replicas=x: config.num_standby_replicas/);
  assert.equal(await page.inputValue('[data-testid=sweep-values-0]'), '0,1,x');
  assert.ok(await page.isDisabled('[data-testid=sweep-run]'));
  await page.fill('[data-testid=sweep-values-0]', '0,1,2');
  await page.waitForSelector('[data-testid=sweep-problem]', { state: 'detached' });
  const from = await page.evaluate(() => performance.now());
  const started = Date.now();
  await page.click('[data-testid=sweep-run]');
  await page.waitForFunction(() => {
    const p = document.querySelector('[data-testid=sweep-progress]');
    return p && p.dataset.done === p.dataset.all;
  }, null, { timeout: 60000 });
  const took = Date.now() - started;
  assert.deepEqual(await progress(page), [12, 12]);
  const rows = await page.$$eval('[data-testid=sweep-row]', (all) =>
    all.map((r) => [r.dataset.done, ...[...r.querySelectorAll('td')].slice(0, 2).map((c) => c.textContent)]),
  );
  assert.equal(rows.length, 12);
  assert.ok(rows.every((r) => r[0] === 'true'), 'every run done');
  assert.deepEqual(rows.map((r) => r[2]), [0, 1, 2].flatMap(() => FOUR), 'strategies fastest');
  assert.deepEqual(rows.map((r) => r[1]), ['0', '1', '2'].flatMap((v) => [v, v, v, v]));
  // Each chart drawn on its canvas: pixels of more than the paper's colour.
  const charts = await page.$$eval('[data-testid=sweep-chart] canvas', (all) =>
    all.map((c) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4 * 97) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
      return colours.size;
    }),
  );
  assert.ok(charts.length >= 4 && charts.every((n) => n > 3), `the charts are drawn: ${charts}`);
  const long = await page.evaluate((f) => window.__longTasks.filter(([s]) => s >= f), from);
  assert.deepEqual(long, [], 'no main-thread task over 50 ms while the sweep ran');
  console.log(`3 x 4 sweep: ${took} ms on ${await page.evaluate(() => navigator.hardwareConcurrency)} workers`);

  // A click on a cell opens its run in the compare view, at that setting.
  await page.click('[data-testid=sweep-row]:nth-child(5) [data-testid=sweep-open]');
  await page.waitForSelector('[data-testid=compare]');
  await settled(page);
  assert.match(await page.textContent('[data-testid=notice]'), /num_standby_replicas=1 of the sweep/);
  assert.equal((await page.$$('[data-testid=lane]')).length, 4);
});

test('a cancel stops the sweep, and the question survives a reload', async () => {
  const page = await sweepPage();
  await sweepOf(page, 0, 'num_standby_replicas', '0..2');
  await sweepOf(page, 1, 'acceptable_recovery_lag', '0,1000,10000,100000,1000000');
  await page.click('[data-testid=sweep-run]');
  await page.click('[data-testid=sweep-cancel]');
  await page.waitForSelector('[data-testid=sweep-cancel]', { state: 'detached' });
  const [done, all] = await progress(page);
  assert.equal(all, 60);
  assert.ok(done < all, `stopped at ${done} of ${all}`);
  assert.match(await page.textContent('[data-testid=sweep-progress]'), /Cancelled/);
  await page.waitForTimeout(1500);
  assert.deepEqual(await progress(page), [done, all], 'nothing runs after the cancel');
  // The question is the session's: a reload shows it, and runs it again.
  await page.waitForFunction(() => localStorage.getItem('handoff.session.v1')?.includes('"sweep":'));
  await page.reload();
  await page.waitForSelector('[data-testid=sweep]');
  assert.equal(await page.$eval('[data-testid=sweep-setting-1]', (s) => s.value), 'acceptable_recovery_lag');
  assert.equal(await page.inputValue('[data-testid=sweep-values-1]'), '0,1000,10000,100000,1000000');
  await page.waitForFunction(() => {
    const p = document.querySelector('[data-testid=sweep-progress]');
    return p && p.dataset.done === p.dataset.all;
  }, null, { timeout: 60000 });
  assert.deepEqual(await progress(page), [60, 60]);
});
