// Kafka's streams protocol on the page (issue 45), in headless Chromium against the release
// build in dist/: the compare view with kip1071 and kip1071-warmup (the unreleased one marked,
// its caveat in full on hover, the table's notes), the protocol strip's epochs and
// reconciliation under kip1071, and the tour "The seed's idea in Kafka's trunk" to its end.
// With `SHOTS=dir` it also saves screenshots of the compare view and the strip there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, settled } from './harness.mjs';

const site = suite();
const CAVEAT = 'Kafka trunk, not released: the refiner as proposed, not merged';
const EPOCHS = /^group epoch (\d+) · assignment epoch (\d+) · the coordinator assigns at heartbeats \(every 5 s\)$/;

const clock = (page) => page.$eval('[data-testid=clock]', (e) => Number(e.textContent));
const lane = (s) => `[data-testid=lane][data-strategy=${s}]`;

async function shot(page, name) {
  if (!process.env.SHOTS) return;
  // Chips that move travel a moment.
  await page.waitForTimeout(1500);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${process.env.SHOTS}/streams-${name}.png` });
}

/** A page tall enough for a screenshot of what matters, when screenshots are asked for (a
 * full-page screenshot resizes the view, and the group lays itself out again meanwhile). */
const tall = () => (process.env.SHOTS ? { viewport: { width: 1400, height: 1250 } } : {});

test('the compare view marks kip1071-warmup as unreleased and counts group epochs', async () => {
  const page = await site.open();
  await page.selectOption('[data-testid=preset]', 'scale-up-running');
  await settled(page);
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=compare]');
  // Four classic lanes: two out, the two streams-protocol ones in.
  for (const s of ['kip441', 'cooperative', 'kip1071', 'kip1071-warmup']) {
    await page.click(`[data-testid=strategy-${s}]`);
    await settled(page);
  }
  const lanes = await page.$$eval('[data-testid=lane]', (ls) => ls.map((l) => l.dataset.strategy));
  assert.deepEqual(lanes, ['learner', 'eager', 'kip1071', 'kip1071-warmup']);
  // The caveat: a short mark wherever kip1071-warmup is named, the whole of it on hover.
  const marks = await page.$$eval('[data-testid=caveat]', (ms) => ms.map((m) => [m.textContent, m.title]));
  assert.ok(marks.length >= 3, `the choice, the lane and the table's row: ${JSON.stringify(marks)}`);
  assert.ok(marks.every(([text, title]) => text === 'trunk, unreleased' && title === CAVEAT), JSON.stringify(marks));
  assert.equal(await page.$eval(`${lane('kip1071-warmup')} [data-testid=caveat]`, (m) => m.title), CAVEAT);
  assert.equal(await page.$(`${lane('kip1071')} [data-testid=caveat]`), null, 'kip1071 is released');
  const notes = await page.$$eval('[data-testid=compare-notes] li', (ls) => ls.map((l) => l.textContent));
  assert.match(notes[0], /^rebalances: group epochs under kip1071 and kip1071-warmup/);
  assert.equal(notes[1], `kip1071-warmup: ${CAVEAT}.`);
  // S4 joins at 0 and S5 at 2 s: two epochs over the stable start, the target computed for
  // each, while the classic lanes count generations.
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=step-round]');
  await settled(page);
  await page.$eval('[data-testid=scrubber]', (input) => {
    input.value = '20000';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settled(page);
  for (const s of ['kip1071', 'kip1071-warmup']) {
    assert.match(await page.textContent(`${lane(s)} [data-testid=lane-state]`), /^epoch 3 · /);
    const [, group, assignment] = (await page.getAttribute(`${lane(s)} [data-testid=lane-state]`, 'title')).match(EPOCHS);
    assert.deepEqual([group, assignment], ['3', '3']);
    assert.match(await page.textContent(`${lane(s)} p.waiting`), / group epochs?/);
  }
  assert.match(await page.textContent(`${lane('learner')} [data-testid=lane-state]`), /^gen \d+ · /);
});

test('the protocol strip shows epochs and heartbeats under kip1071', async () => {
  const page = await site.open('', tall());
  await page.selectOption('[data-testid=preset]', 'scale-up-realistic');
  await settled(page);
  await page.click('[data-testid=config-open]');
  await page.waitForSelector('[data-testid=apply-config]');
  await page.selectOption('[data-testid=config-strategy]', 'kip1071-warmup');
  assert.equal(await page.textContent('[data-testid=config-caveat]'), CAVEAT);
  await page.selectOption('[data-testid=config-strategy]', 'kip1071');
  assert.equal(await page.$('[data-testid=config-caveat]'), null);
  await page.click('[data-testid=apply-config]');
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.textContent.includes('new configuration'));
  await settled(page);
  // At 0 S4's first heartbeat bumped the epoch and the coordinator computed its target: the
  // members reconcile to it at their heartbeats.
  const strip = '[data-testid=protocol]';
  assert.deepEqual((await page.textContent('[data-testid=protocol-epochs]')).match(EPOCHS).slice(1), ['2', '2']);
  assert.equal(await page.getAttribute(strip, 'data-phase'), 'members reconciling at their heartbeats');
  const steps = await page.$$eval(`${strip} .step`, (s) => s.map((x) => [x.dataset.step, x.classList.contains('on')]));
  assert.deepEqual(steps, [['epoch', false], ['target', false], ['reconcile', true]]);
  assert.match(await page.textContent(`${strip} [data-step=reconcile]`), /reconciling at their heartbeats/);
  assert.equal(await page.textContent('[data-testid=leader]'), 'the coordinator');
  assert.equal(await page.$eval('.readout .term', (e) => e.textContent.startsWith('group epoch ')), true);
  await shot(page, 'strip-kip1071');
  // Once every member has reconciled the group is stable at the same epochs.
  for (let i = 0; i < 6 && (await page.getAttribute(strip, 'data-phase')) !== 'stable'; i++) {
    await page.click('[data-testid=step]');
    await settled(page);
  }
  assert.equal(await page.getAttribute(strip, 'data-phase'), 'stable');
  assert.deepEqual((await page.textContent('[data-testid=protocol-epochs]')).match(EPOCHS).slice(1), ['2', '2']);
});

test("the tour 'The seed's idea in Kafka's trunk' compares three lanes to its end", async () => {
  const page = await site.open('', tall());
  await page.selectOption('[data-testid=tour-select]', 'streams-protocol');
  await page.waitForSelector('[data-testid=tour]');
  await settled(page);
  const lanes = await page.$$eval('[data-testid=lane]', (ls) => ls.map((l) => l.dataset.strategy));
  assert.deepEqual(lanes, ['learner', 'kip1071-warmup', 'kip1071']);
  assert.equal(await page.textContent('#tour-title'), "The seed's idea in Kafka's trunk");
  const seen = [];
  for (;;) {
    await settled(page);
    const step = Number(await page.getAttribute('[data-testid=tour]', 'data-step'));
    seen.push({ step, clock: await clock(page), title: await page.textContent('[data-testid=tour-step-title]') });
    if (step === 1) await shot(page, 'compare');
    if (!(await page.$('[data-testid=tour-next]'))) break;
    await page.click('[data-testid=tour-next]');
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid=tour]').dataset.step) === s + 1, step);
  }
  assert.equal(seen.length, 7);
  assert.ok(seen.every((s, i) => i === 0 || s.clock >= seen[i - 1].clock), JSON.stringify(seen));
  // At the end every lane rests, and the table's downtime reads learner < kip1071-warmup < kip1071.
  const downtime = await page.$$eval('[data-testid=compare-table] tbody tr', (rows) =>
    rows.map((r) => [r.dataset.strategy, Number(r.querySelector('td').textContent.replace(/\D/g, ''))]),
  );
  const by = Object.fromEntries(downtime);
  assert.ok(by.learner < by['kip1071-warmup'] && by['kip1071-warmup'] < by.kip1071, JSON.stringify(downtime));
  for (const s of lanes) assert.match(await page.textContent(`${lane(s)} p.waiting`), /at rest/);
  await page.click('[data-testid=tour-leave]');
  await page.waitForSelector('[data-testid=tour]', { state: 'detached' });
});
