// The page never waits for its simulation (issue 43): the histories are computed in a Web
// Worker, so opening a large share link shows the group at once with a progress line, the
// page answers the reader meanwhile, and an action taken while the worker computes is
// carried out once it gets there. Run with the other browser tests (see README.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, importScenario, settled, CHURN_2000 } from './harness.mjs';

const site = suite();

/** The share link of CHURN_2000's history at `at` ms: the page writes it from its own state. */
async function linkAt(at) {
  const page = await site.open();
  await importScenario(page, CHURN_2000, 'churn.json', 120000);
  await settled(page, 120000);
  await page.$eval(
    '[data-testid=scrubber]',
    (input, value) => {
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    at,
  );
  await page.click('[data-testid=share]');
  return page.inputValue('[data-testid=share-url]');
}

test('a large link shows its group at once and a progress line; a click is answered and an action taken meanwhile is carried out', async () => {
  const at = 60000;
  const link = await linkAt(at);
  const page = await site.page();
  const started = Date.now();
  await page.goto(link);
  // The group as far as it is computed, and the line saying how far the rest has come.
  await page.waitForSelector('[data-testid=member]', { timeout: 30000 });
  const progress = page.locator('[data-testid=progress]');
  await progress.waitFor({ timeout: 10000 });
  assert.match(await progress.textContent(), /Computing the history: .* of 60 s/);
  assert.equal(await page.textContent('[data-testid=clock]'), String(at), 'the clock is the link\'s');
  const shownAt = Number(await page.getAttribute('[data-shown-at]', 'data-shown-at'));
  assert.ok(shownAt < at, `the group drawn is the one computed so far (${shownAt} ms)`);
  // The page answers the reader while the worker computes: the help opens and closes.
  const asked = Date.now();
  await page.click('[data-testid=help-button]');
  await page.waitForSelector('[data-testid=help]', { timeout: 2000 });
  const answered = Date.now() - asked;
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=help]', { state: 'detached' });
  // A member added meanwhile waits its turn, in the order taken.
  const names = await page.$$eval('[data-testid=member]', (all) => all.map((m) => m.dataset.memberId));
  await page.click('[data-testid=add-member]');
  assert.ok(await progress.isVisible(), 'still computing when the reader acted');
  assert.match(await progress.textContent(), /1 action waiting for the simulation/);
  // Once the history reaches the link's moment, the group is drawn there, with the new member.
  await page.waitForFunction(
    (t) => document.querySelector('[data-shown-at]')?.dataset.shownAt === String(t) && !document.querySelector('[data-testid=progress]'),
    at,
    { timeout: 120000 },
  );
  await settled(page);
  // Besides those the scenario has joined by then, one more: the reader's.
  const scheduled = new Set([
    ...Array.from({ length: CHURN_2000.instances.count }, (_, i) => `S${i + 1}`),
    ...CHURN_2000.events.filter((e) => e.join && e.at_ms <= at).map((e) => e.join),
  ]);
  const now = await page.$$eval('[data-testid=member]', (all) => all.map((m) => m.dataset.memberId));
  const added = now.filter((n) => !scheduled.has(n));
  assert.equal(added.length, 1, `one member more: ${added}`);
  assert.ok(names.length < now.length - 1, 'the group drawn at first was the one computed so far');
  // The timeline editor's marks, made a few a frame as the session opened, are all there.
  const marks = await page.$$eval('[data-testid=schedule-mark]', (all) => all.map((m) => Number(m.dataset.at)));
  const missing = CHURN_2000.events.filter((e) => !marks.includes(e.at_ms));
  assert.deepEqual(missing, [], 'every scheduled command has its mark');
  assert.ok(marks.length >= CHURN_2000.events.length, `${marks.length} marks for ${CHURN_2000.events.length} commands`);
  assert.equal(await page.$('[data-testid=error]'), null);
  assert.equal(await page.textContent('[data-testid=clock]'), String(at));
  console.log(`link to its moment: ${Date.now() - started} ms; a click answered in ${answered} ms while computing`);
});
