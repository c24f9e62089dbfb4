// The operations controls in headless Chromium, against the release build in dist/: a restart
// with its time away and disk choice (the countdown, the return), a rolling restart, a zone
// outage from the zone control, cards grouped by zone, static membership switched on in the
// configuration, the compare view with a zone preset, a member added in a zone, and a large
// group drawn compactly with zones and a restarting member. No page may log a console error
// or request anything outside the site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suite, importScenario, zoomIn, settled } from './harness.mjs';

const site = suite();

async function open(presetId) {
  const page = await site.open();
  await page.selectOption('[data-testid=preset]', presetId);
  await settled(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=clock]').textContent === '0');
  return page;
}

const clock = (page) => page.$eval('[data-testid=clock]', (e) => Number(e.textContent));
const generation = (page) => page.$eval('[data-testid=generation]', (e) => Number(e.textContent));
const card = (id, lane) => `${lane ? `[data-testid=lane][data-strategy=${lane}] ` : ''}[data-testid=member][data-member-id=${id}]`;
const state = (page, id, lane) => page.$eval(card(id, lane), (e) => e.dataset.state);
const playing = async (page) => (await page.getAttribute('[data-testid=play]', 'aria-pressed')) === 'true';
const waitState = (page, id, want, timeout = 20000) =>
  page.waitForFunction(([sel, s]) => document.querySelector(sel)?.dataset.state === s, [card(id), want], { timeout });

/** Types into a field and commits it (a change event), as a person tabbing away does. */
async function enter(page, selector, value) {
  await page.fill(selector, value);
  await page.dispatchEvent(selector, 'change');
}

/** Moves the clock to a moment, simulating ahead (the scrubber reaches a little past the frontier). */
async function seekFar(page, ms) {
  for (let i = 0; i < 50 && (await clock(page)) !== ms; i++) {
    const max = Number(await page.getAttribute('[data-testid=scrubber]', 'max'));
    const to = Math.min(ms, max);
    await page.$eval('[data-testid=scrubber]', (input, value) => {
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, to);
    await page.waitForFunction((v) => document.querySelector('[data-testid=clock]').textContent === String(v), to);
  }
  assert.equal(await clock(page), ms);
}

/** Plays at 16x until the group is at rest (the playground pauses itself then). */
async function playToRest(page, timeout = 30000) {
  await page.selectOption('[data-testid=speed]', '16');
  if (!(await playing(page))) await page.click('[data-testid=play]');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'false', null, {
    timeout,
  });
  await page.waitForSelector('[data-testid=at-rest]');
}

test('a restart: time away and disk chosen, the member counts down while away, then it is back', async () => {
  const page = await open('scale-up-running');
  await playToRest(page);
  // A slip in the time away is named beside the field, which keeps what was typed; the last
  // good time is kept.
  await enter(page, '[data-testid=down-time]', '0');
  await page.waitForSelector('[data-testid=down-time-problem]');
  assert.match(await page.textContent('[data-testid=down-time-problem]'), /time away: .*not "0"/);
  assert.equal(await page.inputValue('[data-testid=down-time]'), '0');
  assert.equal(await page.getAttribute('[data-testid=down-time]', 'aria-invalid'), 'true');
  await enter(page, '[data-testid=down-time]', '4.5');
  await page.waitForSelector('[data-testid=down-time-problem]', { state: 'detached' });
  await page.uncheck('[data-testid=keep-state]');
  assert.match(await page.getAttribute(`${card('S2')} [data-testid=restart]`, 'title'), /away 4\.5 s, loses its disk/);
  await page.selectOption('[data-testid=speed]', '1');
  const before = await clock(page);
  await page.click(`${card('S2')} [data-testid=restart]`);
  await waitState(page, 'S2', 'restarting');
  assert.ok(await playing(page), 'after a pause at rest, the restart plays on');
  assert.ok(await page.$eval(`${card('S2')} [data-testid=restart]`, (b) => b.disabled), 'a restarting member is not restarted again');
  const countdown = `${card('S2')} [data-testid=countdown]`;
  assert.equal(await page.getAttribute(countdown, 'role'), 'timer');
  const first = await page.textContent(countdown);
  assert.match(first, /back in \d\.\d s/);
  assert.match(first, /lost its disk/);
  assert.match(await page.getAttribute(card('S2'), 'aria-label'), /^member S2, restarting, back in \d\.\d s/);
  const left = async () => Number(await page.getAttribute(countdown, 'data-back-in'));
  const start = await left();
  assert.ok(start <= 4500 && start > 3000, `${start} ms left just after the restart`);
  await page.waitForFunction((sel) => Number(document.querySelector(sel).dataset.backIn) < 3500, countdown);
  assert.notEqual(await page.textContent(countdown), first, 'the countdown moves');
  await page.selectOption('[data-testid=speed]', '16');
  await waitState(page, 'S2', 'live');
  assert.equal(await page.$(countdown), null, 'back: no countdown');
  assert.ok((await clock(page)) >= before + 4500);
  // Without its disk S2 came back empty: it restores or learns its tasks again.
  await playToRest(page);
  assert.ok(await page.$eval(`${card('S2')} [data-testid=restart]`, (b) => !b.disabled));
});

test('a rolling restart restarts each member in turn and says how far it is', async () => {
  const page = await open('scale-up-running');
  await playToRest(page);
  await enter(page, '[data-testid=down-time]', '1');
  await page.selectOption('[data-testid=speed]', '1');
  await page.click('[data-testid=rolling-restart]');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'true');
  assert.ok(await playing(page), 'the rolling restart plays on');
  assert.ok(await page.$eval('[data-testid=rolling-restart]', (b) => b.disabled), 'one at a time');
  const ids = await page.$$eval('[data-testid=member]', (m) => m.map((x) => x.dataset.memberId));
  assert.deepEqual(ids, ['S1', 'S2', 'S3', 'S4', 'S5']);
  assert.match(await page.textContent('[data-testid=rolling-status]'), /^Rolling restart: S1 is restarting, back in \d\.\d s · then S2 and 3 more/);
  assert.equal(await state(page, 'S1'), 'restarting');
  // Slowly enough to read the status while each member is away.
  await page.selectOption('[data-testid=speed]', '4');
  for (const id of ids.slice(1)) {
    await waitState(page, id, 'restarting');
    assert.match(await page.textContent('[data-testid=rolling-status]'), new RegExp(`${id} is restarting`));
  }
  await playToRest(page);
  assert.equal(await page.$('[data-testid=rolling-status]'), null, 'done');
  const states = await page.$$eval('[data-testid=member]', (m) => m.map((x) => x.dataset.state));
  assert.deepEqual(states, ['live', 'live', 'live', 'live', 'live']);
});

test('zones: cards grouped by zone with data-zone, and a zone fails from the zone control', async () => {
  const page = await open('zone-failure');
  const zones = await page.$$eval('[data-testid=zone]', (z) =>
    z.map((x) => [x.dataset.zone, [...x.querySelectorAll('[data-testid=member]')].map((m) => `${m.dataset.memberId}:${m.dataset.zone}`)]),
  );
  assert.deepEqual(zones, [
    ['a', ['S1:a', 'S4:a']],
    ['b', ['S2:b', 'S5:b']],
    ['c', ['S3:c', 'S6:c']],
  ]);
  const entries = () => page.$$eval('[data-testid=crash-zone]', (b) => b.map((x) => [x.dataset.zone, x.disabled, x.textContent]));
  assert.deepEqual(await entries(), [
    ['a', false, 'crash zone a (2 of 2 live)'],
    ['b', false, 'crash zone b (2 of 2 live)'],
    ['c', false, 'crash zone c (2 of 2 live)'],
  ]);
  // The preset fails zone a at 1 s.
  // A step lands where the worker finds the next event: wait for its moment.
  await page.click('[data-testid=step]');
  await page.waitForFunction(() => document.querySelector('[data-testid=clock]').textContent === '1000');
  await settled(page);
  assert.equal(await clock(page), 1000);
  assert.deepEqual([await state(page, 'S1'), await state(page, 'S4')], ['crashed', 'crashed']);
  assert.ok(await page.$eval('[data-testid=zone][data-zone=a]', (z) => z.classList.contains('down')));
  assert.match(await page.textContent('[data-testid=zone][data-zone=a] h3'), /0 of 2 live.*down/i);
  await page.click('[data-testid=crash-zone][data-zone=b]');
  await waitState(page, 'S5', 'crashed');
  assert.deepEqual([await state(page, 'S2'), await state(page, 'S5')], ['crashed', 'crashed']);
  assert.deepEqual((await entries()).map(([z, disabled]) => [z, disabled]), [['a', true], ['b', true], ['c', false]]);
  assert.equal(await state(page, 'S3'), 'live');
  // T1, T2, T4, T5 are orphans until the sessions time out; then zone c runs everything.
  await playToRest(page);
  const active = await page.$$eval('[data-testid=zone][data-zone=c] [data-role=active][data-up=true]', (c) => c.map((x) => x.dataset.taskId).sort());
  assert.deepEqual(active, ['T1', 'T2', 'T3', 'T4', 'T5', 'T6']);
});

test('a member added in the playground picks a zone, the least used one suggested', async () => {
  const page = await open('zone-failure');
  assert.equal(await page.$eval('[data-testid=add-zone]', (s) => s.value), 'a');
  await page.click(`${card('S2')} [data-testid=crash]`);
  assert.equal(await page.$eval('[data-testid=add-zone]', (s) => s.value), 'b', 'b has the fewest live members now');
  await page.selectOption('[data-testid=add-zone]', 'c');
  await page.click('[data-testid=add-member]');
  await page.waitForSelector('[data-testid=zone][data-zone=c] [data-member-id=S7]');
  assert.equal(await page.getAttribute(card('S7'), 'data-zone'), 'c');
  assert.match(await page.getAttribute(card('S7'), 'aria-label'), /^member S7, live, zone c/);
  // The pick holds for the next member; "none" adds one without a zone, grouped apart.
  await page.click('[data-testid=add-member]');
  await page.waitForSelector('[data-testid=zone][data-zone=c] [data-member-id=S8]');
  await page.selectOption('[data-testid=add-zone]', '');
  await page.click('[data-testid=add-member]');
  await page.waitForSelector('[data-testid=zone]:not([data-zone]) [data-member-id=S9]');
  assert.equal(await page.getAttribute(card('S9'), 'data-zone'), null);
  assert.equal(await page.$$eval('[data-testid=zone]', (z) => z.at(-1).textContent.startsWith('no zone')), true, 'last');
});

test('static membership switched on in the configuration: a restart within the session keeps the assignment', async () => {
  const page = await open('lost-disk');
  assert.match(await page.textContent('[data-testid=restart-outcome]'), /^Dynamic membership/);
  await page.click('[data-testid=config-open]');
  await page.waitForSelector('[data-testid=config-static]');
  assert.equal(await page.isChecked('[data-testid=config-static]'), false);
  assert.equal(await page.isChecked('[data-testid=config-rack-aware]'), true);
  await page.check('[data-testid=config-static]');
  // Zones for the starting members, in the member table.
  for (const [id, zone] of [['S1', 'a'], ['S2', 'b'], ['S3', 'a']]) {
    await enter(page, `[aria-label="zone of ${id}"]`, zone);
  }
  await page.click('[data-testid=apply-config]');
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.textContent.includes('new configuration'));
  assert.match(await page.textContent('[data-testid=restart-outcome]'), /^Static membership: back within the 10 s session timeout/);
  assert.deepEqual(await page.$$eval('[data-testid=zone]', (z) => z.map((x) => x.dataset.zone)), ['a', 'b']);
  assert.ok(await page.isChecked('[data-testid=config-static]'), 'the editor shows the applied configuration');
  assert.equal(await page.inputValue('[aria-label="zone of S2"]'), 'b');
  // The scenario's own restart of S2 (at 1 s, away 6 s, no disk): under static membership it
  // keeps its tasks on its card, down while it is away, and no rebalance happens.
  await page.click('[data-testid=step]');
  const gen = await generation(page);
  const s2 = async () =>
    page.$$eval(`${card('S2')} [data-testid=task][data-role=active]`, (c) => c.map((x) => `${x.dataset.taskId}:${x.dataset.up}`));
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.state === 'restarting', card('S2'));
  assert.deepEqual(await s2(), ['T3:false', 'T4:false']);
  assert.equal(await page.getAttribute(`${card('S2')} [data-task-id=T3][data-role=active]`, 'data-away'), 'true');
  assert.match(await page.getAttribute(`${card('S2')} [data-task-id=T3][data-role=active]`, 'aria-label'), /^T3 on S2 · active, down while S2 restarts$/);
  assert.ok((await page.$$(`${card('S2')} [data-role=standby]`)).length > 0, 'its standbys stay too');
  await playToRest(page);
  assert.equal(await generation(page), gen, 'no rebalance');
  assert.deepEqual(await s2(), ['T3:true', 'T4:true']);
});

test('the compare view runs a zone preset across strategies, with zones, restarts and outages in every lane', async () => {
  const page = await open('zone-failure');
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=compare]');
  const lanes = await page.$$eval('[data-testid=lane]', (l) => l.map((x) => x.dataset.strategy));
  assert.equal(lanes.length, 4);
  for (const lane of lanes) {
    const zones = await page.$$eval(`[data-testid=lane][data-strategy=${lane}] [data-testid=zone]`, (z) => z.map((x) => x.dataset.zone));
    assert.deepEqual(zones, ['a', 'b', 'c'], `${lane} groups by zone`);
  }
  await page.click(`${card('S3', 'learner')} [data-testid=restart]`);
  for (const lane of lanes) {
    assert.equal(await state(page, 'S3', lane), 'restarting', `${lane} saw the restart`);
    assert.match(await page.textContent(`${card('S3', lane)} [data-testid=countdown]`), /back in 6\.0 s/);
  }
  await page.click('[data-testid=crash-zone][data-zone=b]');
  for (const lane of lanes) {
    assert.equal(await state(page, 'S5', lane), 'crashed', `${lane} lost zone b`);
  }
  // Kafka's warm-ups wait for probing rebalances ten minutes apart: look 20 s on, not at rest.
  await seekFar(page, 20000);
  const down = await page.$$eval('[data-testid=compare-table] tbody tr', (rows) =>
    rows.map((r) => parseInt(r.querySelector('[data-metric="total downtime ms"]').textContent, 10)),
  );
  assert.ok(down.every((d) => d > 0), `every strategy paid for the outages: ${down}`);
  for (const lane of lanes) {
    assert.equal(await state(page, 'S3', lane), 'live', `${lane}: S3 is back`);
  }
});

test('a large group drawn compactly still groups by zone and shows a restarting member with its countdown', async () => {
  const page = await open('scale-up-running');
  const members = Array.from({ length: 18 }, (_, i) => ({ id: `S${i + 1}`, zone: 'abc'[i % 3] }));
  const initial = {};
  for (let t = 0; t < 200; t++) (initial[`S${(t % 18) + 1}`] ||= []).push(`T${t + 1}`);
  await importScenario(page, {
    name: 'Large, in zones',
    config: { static_membership: true },
    tasks: Array.from({ length: 200 }, (_, i) => ({ id: `T${i + 1}`, changelog: 40000 })),
    members,
    initial,
    events: [{ at_ms: 0, restart: 'S4', down_ms: 8000 }],
  });
  await zoomIn(page);
  // Marks, not chips: the only task elements are the one each member's marks name at a time.
  assert.ok(await page.$$eval('[data-testid=task]', (t) => t.length > 0 && t.every((x) => x.closest('[data-testid=mini]'))), 'marks, not chips');
  await seekFar(page, 1000);
  const zones = await page.$$eval('[data-testid=zone]', (z) => z.map((x) => [x.dataset.zone, x.querySelectorAll('[data-testid=mini]').length]));
  assert.deepEqual(zones, [['a', 6], ['b', 6], ['c', 6]]);
  assert.equal(await state(page, 'S4'), 'restarting');
  assert.match(await page.textContent(`${card('S4')} [data-testid=countdown]`), /back in \d\.\d s/);
  assert.match(await page.getAttribute(card('S4'), 'aria-label'), /^member S4, restarting, back in \d\.\d s, zone a: 11 active \(11 down\)/);
  // Its marks wait for it (paused), they are not restoring.
  const box = await (await page.$(`${card('S4')} [data-testid=mini]`)).boundingBox();
  await page.mouse.move(box.x + 5, box.y + 5);
  await page.waitForSelector('[data-testid=mini-hover]');
  assert.match(await page.textContent('[data-testid=mini-hover]'), /^T\d+ on S4 \u00B7 active, down while S4 restarts$/);
  await page.fill('[data-testid=find]', 's4');
  await page.waitForFunction(() => document.querySelector('[data-testid=found]').textContent.startsWith('S4: restarting, back in'));
  assert.match(await page.textContent('[data-testid=found]'), /, zone a, 11 active \(11 down\)/);
});
