// The playground's design-review tools in headless Chromium, against the release build in
// dist/: the application form (filled in, a bad value named on its field without losing what
// was typed, applied), the timeline editor (scheduled commands added, moved and deleted with
// the mouse and the keyboard, an impossible edit refused) and the report download. No page
// may log a console error or request anything outside the site; the form and the editor pass
// an axe audit in both themes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { suite, settled } from './harness.mjs';

const site = suite();

const open = (options = {}) => site.open('', options);

async function preset(page, id) {
  await page.selectOption('[data-testid=preset]', id);
  await settled(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=clock]').textContent === '0');
}

const clock = (page) => page.$eval('[data-testid=clock]', (e) => Number(e.textContent));
const notice = (page) => page.$eval('[data-testid=notice]', (e) => e.textContent);
const marks = (page) =>
  page.$$eval('[data-testid=schedule-mark]', (list) =>
    list.map((m) => ({ kind: m.dataset.kind, at: Number(m.dataset.at), selected: m.getAttribute('aria-selected') === 'true', label: m.getAttribute('aria-label') })),
  );
const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));

/** Waits until the notice (the page's live status) says something containing `words`. */
async function noticeSays(page, words) {
  await page.waitForFunction((w) => document.querySelector('[data-testid=notice]')?.textContent.includes(w), words);
}

/** The x of a moment on the schedule's track, and its middle y. */
async function trackPoint(page, share) {
  const box = await page.locator('[data-testid=schedule]').boundingBox();
  return { x: box.x + box.width * share, y: box.y + box.height / 2 };
}

test('the application form: a bad value is named on its field and kept, and the application applied runs its tasks', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.click('[data-testid=application-open]');
  await page.waitForSelector('[data-testid=application]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'app-name');
  await page.fill('[data-testid=app-name]', 'Shop');
  await page.fill('[data-testid=app-partitions-0]', '6');
  await page.click('[data-testid=app-add-subtopology]');
  await page.fill('[data-testid=app-sub-name-1]', 'enrich');
  await page.fill('[data-testid=app-partitions-1]', '2');
  await page.uncheck('[data-testid=app-stateful-1]');
  await page.fill('[data-testid=app-count]', '3');
  await page.fill('[data-testid=app-threads]', '2');
  await page.fill('[data-testid=app-zones]', 'a, b');
  await page.waitForFunction(() => document.querySelector('[data-testid=app-totals]').textContent.startsWith('8 tasks (6 stateful)'));
  assert.match(await page.textContent('[data-testid=app-totals]'), /3 instances, 6 threads/);

  // min > max: one line naming the field, on the fields, with what was typed kept.
  await page.fill('[data-testid=app-min-0]', '2,000,000');
  const error = page.locator('[data-testid=app-error][data-field="topology.subtopologies[0].changelog"]');
  await error.waitFor();
  assert.equal(await error.textContent(), 'topology.subtopologies[0].changelog: min (2000000) is above max (1000000)');
  assert.equal(await page.inputValue('[data-testid=app-min-0]'), '2,000,000');
  assert.equal(await page.getAttribute('[data-testid=app-min-0]', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('[data-testid=app-max-0]', 'aria-invalid'), 'true');
  assert.ok(await page.isDisabled('[data-testid=app-apply]'));
  // Not a number, zero partitions, too many tasks for the browser.
  await page.fill('[data-testid=app-partitions-1]', '2x');
  await page.waitForSelector('[data-testid=app-error][data-field="topology.subtopologies[1].partitions"]');
  assert.match(await page.textContent('[data-field="topology.subtopologies[1].partitions"]'), /"2x" is not a whole number/);
  assert.equal(await page.inputValue('[data-testid=app-partitions-1]'), '2x');
  await page.fill('[data-testid=app-partitions-1]', '60000');
  await page.waitForFunction(() =>
    /over the limit of \d+ a scenario may have: the playground draws every task/.test(
      document.querySelector('[data-field="topology.subtopologies[1].partitions"]')?.textContent,
    ),
  );
  await page.fill('[data-testid=app-min-0]', '100000');
  await page.fill('[data-testid=app-partitions-1]', '2');
  await page.waitForFunction(() => !document.querySelector('[data-testid=app-error]'));
  await page.click('[data-testid=app-apply]');
  await noticeSays(page, 'Restarted with your application: 8 tasks on 3 instances.');
  await page.waitForSelector('[data-testid=application]', { state: 'detached' });
  assert.equal(await clock(page), 0);
  const tasks = await page.$$eval('[data-testid=task][data-role=active]', (c) => c.map((x) => x.dataset.taskId).sort());
  assert.deepEqual(tasks, ['0_0', '0_1', '0_2', '0_3', '0_4', '0_5', '1_0', '1_1'], 'the running instances run every task');
  assert.equal(await page.textContent('[data-testid=application-summary]'), '8 tasks in 2 subtopologies on 3 instances of 2 threads');
  assert.equal(await page.$eval('[data-testid=preset]', (s) => s.value), '', 'a custom scenario');
  // The configuration editor leaves the tasks and members to the form.
  await page.click('[data-testid=config-open]');
  await page.waitForSelector('[data-testid=config-application]');
  assert.equal(await page.$('text=+ task'), null);
  // The form opens on what was applied; Escape closes it.
  await page.click('[data-testid=application-open]');
  assert.equal(await page.inputValue('[data-testid=app-sub-name-1]'), 'enrich');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=application]', { state: 'detached' });
});

test('the timeline editor: scheduled commands added, dragged, moved by keys, edited and deleted, each run again', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  assert.deepEqual((await marks(page)).map((m) => [m.kind, m.at]), [['join', 0], ['join', 2000]]);
  const scale = Number(await page.getAttribute('[data-testid=scrubber]', 'max'));
  assert.equal(scale, 5000, 'the track takes in the scheduled commands');

  // A click on the track opens the editor at that moment: a crash of S2 at 4 s.
  const at4 = await trackPoint(page, 0.8);
  await page.mouse.click(at4.x, at4.y);
  await page.waitForSelector('[data-testid=schedule-editor]');
  assert.equal(await page.inputValue('[data-testid=schedule-at]'), '4000');
  await page.selectOption('[data-testid=schedule-kind]', 'crash');
  await page.selectOption('[data-testid=schedule-member]', 'S2');
  await page.click('[data-testid=schedule-submit]');
  await noticeSays(page, 'Scheduled crash S2 at 4 s: the history was run again from 4 s.');
  await page.waitForSelector('[data-testid=schedule-editor]', { state: 'detached' });
  assert.deepEqual((await marks(page)).map((m) => [m.kind, m.at]), [['join', 0], ['join', 2000], ['crash', 4000]]);
  assert.equal(await clock(page), 0, 'the clock stays where it was');

  // Dragged with the mouse to 3 s.
  const mark = page.locator('[data-testid=schedule-mark][data-kind=crash]');
  const box = await mark.boundingBox();
  const at3 = await trackPoint(page, 0.6);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(at3.x, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await noticeSays(page, 'Moved crash S2 from 4 s to 3 s');
  assert.equal((await marks(page))[2].at, 3000);

  // The keyboard: the marks are one tab stop; arrows move the selected one by a step, and the
  // clock does not step (the page's own arrow shortcuts are not triggered).
  await page.focus('[data-testid=schedule-mark][data-kind=crash]');
  const step = scale / 100;
  await page.keyboard.press('ArrowRight');
  await noticeSays(page, `Moved crash S2 from 3 s to ${(3000 + step) / 1000} s`);
  await page.keyboard.press('Shift+ArrowLeft');
  const moved = 3000 + step - 10 * step;
  await noticeSays(page, `Moved crash S2 from ${(3000 + step) / 1000} s to ${moved / 1000} s`);
  assert.equal((await marks(page))[2].at, moved);
  assert.equal(await clock(page), 0);
  assert.equal(await focused(page), `crash S2 at ${moved / 1000} s`, 'the moved mark keeps the focus');
  const tabStops = await page.$$eval('[data-testid=schedule-mark]', (l) => l.filter((m) => m.tabIndex === 0).length);
  assert.equal(tabStops, 1, 'roving tabindex');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'join S5 at 2 s');
  assert.ok((await marks(page))[1].selected);
  // Enter opens the editor: S5 now joins at 1 s.
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=schedule-editor]');
  await page.fill('[data-testid=schedule-at]', '1000');
  await page.click('[data-testid=schedule-submit]');
  await noticeSays(page, 'Changed join S5 at 2 s to join S5 at 1 s');
  assert.deepEqual((await marks(page)).map((m) => m.at), [0, 1000, moved]);

  // An impossible edit is refused in one line and the timeline stays: S5 drained before it joins.
  const before = await marks(page);
  await page.mouse.click((await trackPoint(page, 0.1)).x, at4.y);
  await page.selectOption('[data-testid=schedule-kind]', 'drain');
  await page.selectOption('[data-testid=schedule-member]', 'S5');
  await page.click('[data-testid=schedule-submit]');
  await page.waitForSelector('[data-testid=error]');
  const error = await page.textContent('[data-testid=error] span');
  assert.match(error, /^Cannot schedule drain S5 at 500 ms: .*has not joined by 500 ms\. The timeline is unchanged\.$/);
  assert.deepEqual(await marks(page), before);
  assert.ok(await page.isVisible('[data-testid=schedule-editor]'), 'what was typed is still there');
  await page.click('[data-testid=schedule-cancel]');

  // Re-run from that point: by 3 s, S2 has crashed.
  await page.$eval('[data-testid=scrubber]', (input) => {
    input.value = '3000';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('[data-member-id=S2]')?.dataset.state === 'crashed');

  // Delete with the key, then with the button.
  await page.focus('[data-testid=schedule-mark][data-kind=crash]');
  await page.keyboard.press('Delete');
  await noticeSays(page, `Deleted crash S2 at ${moved / 1000} s`);
  assert.deepEqual((await marks(page)).map((m) => m.kind), ['join', 'join']);
  assert.equal(await page.$eval('[data-member-id=S2]', (e) => e.dataset.state), 'live');
  await page.click('[data-testid=schedule-mark][data-index="0"]');
  await page.click('[data-testid=schedule-delete]');
  await noticeSays(page, 'Deleted join S4 at 0 ms');
  assert.equal(await page.$('[data-member-id=S4]'), null, 'S4 never joined');
});

test('the report downloads as one self-contained page: the comparison and a section per strategy', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=compare]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-report]')]);
  assert.equal(download.suggestedFilename(), 'handoff-report.html');
  const html = readFileSync(await download.path(), 'utf8');
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  assert.match(html, /<table class="comparison">/);
  const rows = html.split('<table class="comparison">')[1].split('</table>')[0].match(/<tr data-strategy="[a-z0-9]+"/g);
  assert.deepEqual(rows, ['learner', 'kip441', 'cooperative', 'eager'].map((s) => `<tr data-strategy="${s}"`));
  for (const s of ['learner', 'kip441', 'cooperative', 'eager']) {
    assert.ok(html.includes(`<section class="strategy" id="strategy-${s}">`), s);
  }
  assert.ok(html.includes('join S5'), 'the scheduled commands are in the summary');
  for (const outside of ['http://', 'https://', '<script', 'src=']) assert.ok(!html.includes(outside), outside);
  await noticeSays(page, 'Report saved: Scale Up Running Application under learner, kip441, cooperative, eager');
});

test('the form and the timeline editor pass an axe audit in both themes', async () => {
  const require = createRequire(import.meta.url);
  const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const page = await open({ bypassCSP: true });
  await page.addScriptTag({ content: axe });
  const audit = async (where) => {
    const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`),
      [],
      `${where}: ${JSON.stringify(bad.map((v) => v.nodes.slice(0, 2).map((n) => n.html)))}`,
    );
  };
  await preset(page, 'scale-up-running');
  for (const theme of ['light', 'dark']) {
    if ((await page.getAttribute('html', 'data-theme')) !== theme) await page.click('[data-testid=theme]');
    await page.click('[data-testid=schedule-mark][data-index="1"]');
    await audit(`a mark selected, ${theme}`);
    await page.dblclick('[data-testid=schedule-mark][data-index="1"]');
    await page.waitForSelector('[data-testid=schedule-editor]');
    await audit(`the command editor, ${theme}`);
    await page.click('[data-testid=schedule-cancel]');
    await page.click('[data-testid=application-open]');
    await page.fill('[data-testid=app-max-0]', '5');
    await page.waitForSelector('[data-testid=app-error]');
    await audit(`the application form with a problem, ${theme}`);
    await page.keyboard.press('Escape');
  }
});
