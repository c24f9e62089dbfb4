// The playground in headless Chromium, against the release build in dist/ served from a
// sub-path: it loads, plays, takes commands, scrubs and forks, compares strategies with
// charts, shares and restores sessions, survives bad input, answers the keyboard, embeds,
// walks its tours, measures its own work when asked (`?timing=1`), and passes an axe
// accessibility audit. No page may log a console error or request anything outside the site.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { suite, importScenario, scaleOut, zoomIn, settled, HEAVY } from './harness.mjs';

const site = suite();

const open = site.open;

const clock = (page) => page.$eval('[data-testid=clock]', (e) => Number(e.textContent));
const generation = (page) => page.$eval('[data-testid=generation]', (e) => Number(e.textContent));
const chips = (page, member) =>
  page.$$eval(`[data-testid=member][data-member-id=${member}] [data-testid=task]`, (list) =>
    list.map((c) => ({
      task: c.dataset.taskId,
      role: c.dataset.role,
      ready: c.dataset.ready,
      progress: c.dataset.progress === undefined ? undefined : Number(c.dataset.progress),
    })),
  );
const member = (page, id) => page.$(`[data-testid=member][data-member-id=${id}]`);
const state = (page, id) => page.$eval(`[data-testid=member][data-member-id=${id}]`, (e) => e.dataset.state);

async function preset(page, id) {
  await page.selectOption('[data-testid=preset]', id);
  await settled(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=clock]').textContent === '0');
}

async function fast(page) {
  await page.selectOption('[data-testid=speed]', '16');
}

async function play(page) {
  if ((await page.getAttribute('[data-testid=play]', 'aria-pressed')) !== 'true') {
    await page.click('[data-testid=play]');
  }
}

async function pause(page) {
  if ((await page.getAttribute('[data-testid=play]', 'aria-pressed')) === 'true') {
    await page.click('[data-testid=play]');
  }
}

async function seek(page, ms) {
  await page.$eval(
    '[data-testid=scrubber]',
    (input, value) => {
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    ms,
  );
  await page.waitForFunction((v) => document.querySelector('[data-testid=clock]').textContent === String(v), ms);
}

/** Moves the clock to any moment, simulating ahead: the scrubber only reaches a little past the frontier. */
async function seekFar(page, ms) {
  for (let i = 0; i < 50 && (await clock(page)) !== ms; i++) {
    const max = Number(await page.getAttribute('[data-testid=scrubber]', 'max'));
    await seek(page, Math.min(ms, max));
  }
  assert.equal(await clock(page), ms);
}

/** Plays at 16x until the group is at rest (the playground pauses itself then). */
async function playToRest(page, timeout = 20000) {
  await fast(page);
  await play(page);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'false',
    null,
    { timeout },
  );
  await page.waitForSelector('[data-testid=at-rest]');
}

test('loads the gzipped wasm, and the plain one when the gzipped cannot be had or unpacked', async () => {
  const wasm = (page) => {
    const asked = [];
    page.on('request', (r) => {
      if (/_bg\.wasm(\.gz)?$/.test(r.url())) asked.push(r.url().endsWith('.gz') ? 'gz' : 'plain');
    });
    return asked;
  };
  const packed = await site.page();
  const asked = wasm(packed);
  await packed.goto(site.url);
  await packed.waitForSelector('[data-testid=member]');
  assert.deepEqual([...new Set(asked)], ['gz'], 'only the gzipped wasm is fetched');

  const blocked = await site.page();
  const fellBack = wasm(blocked);
  await blocked.route(/_bg\.wasm\.gz$/, (route) => route.fulfill({ status: 404, body: 'not here' }));
  await blocked.goto(site.url);
  await blocked.waitForSelector('[data-testid=member]');
  assert.ok(fellBack.includes('plain'), `the plain wasm is fetched when the gzipped is missing: ${fellBack}`);
  // The 404 is the point of this check, not a problem of the page.
  blocked.problems = blocked.problems.filter((p) => !/404/.test(p));

  const old = await site.page();
  const withoutStreams = wasm(old);
  await old.addInitScript(() => delete window.DecompressionStream);
  await old.goto(site.url);
  await old.waitForSelector('[data-testid=member]');
  // The preload link still fetches the gzipped file; the loader then asks for the plain one.
  assert.equal(withoutStreams.at(-1), 'plain', `a browser without DecompressionStream loads the plain wasm: ${withoutStreams}`);

  // A host that marks .gz files as gzip-encoded hands over the unpacked bytes.
  const encoded = await site.page();
  const unpackedByHost = wasm(encoded);
  const plain = await (await fetch(site.url + readFileSync('dist/index.html', 'utf8').match(/\.\/([^'"]+_bg\.wasm)'/)[1])).arrayBuffer();
  await encoded.route(/_bg\.wasm\.gz$/, (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from(plain) }));
  await encoded.goto(site.url);
  await encoded.waitForSelector('[data-testid=member]');
  assert.deepEqual([...new Set(unpackedByHost)], ['gz'], 'bytes the host unpacked are used as they come');
});

test('loads and offers the seed scenarios as presets', async () => {
  const page = await open();
  const names = await page.$$eval('[data-testid=preset] option', (o) => o.map((x) => x.textContent));
  for (const name of [
    'Scale Up Running Application',
    'Scale Up from Empty Group',
    'Scale Down Running Application',
    'Leader Transfer During Scaling',
    'Empty group',
  ]) {
    assert.ok(names.includes(name), `preset ${name} in ${names}`);
  }
  await preset(page, 'scale-up-running');
  assert.equal(await page.$$eval('[data-testid=member]', (m) => m.length), 4, 'S1 to S3 and S4 joining');
  assert.equal(await page.getAttribute('[data-member-id=S1]', 'data-leader'), 'true');
  assert.equal(await clock(page), 0);
});

test('adding a member: a learner appears, fills up, turns ready and takes over', async () => {
  const page = await open();
  await preset(page, 'empty-group');
  await page.click('[data-testid=add-member]');
  await fast(page);
  await play(page);
  await page.waitForFunction(
    () => document.querySelectorAll('[data-member-id=S1] [data-role=active][data-up=true]').length === 6,
  );
  await page.click('[data-testid=add-member]');
  await play(page);
  await page.waitForSelector('[data-member-id=S2] [data-role=learner]');
  await pause(page);
  const first = await chips(page, 'S2');
  assert.equal(first.filter((c) => c.role === 'learner').length, 3, JSON.stringify(first));
  assert.ok(first.every((c) => c.ready === 'false' && c.progress < 100));
  // The S1 side shows the tasks as learned.
  assert.equal(await page.$$eval('[data-member-id=S1] [data-learned=true]', (l) => l.length), 3);
  // A card's name says what it holds; its chips are one tab stop, and the arrow keys go over them.
  assert.match(await page.getAttribute('[data-member-id=S2]', 'aria-label'), /^member S2, live: learns T\d \(\d+ %\), T\d \(\d+ %\) and T\d \(\d+ %\)$/);
  assert.match(await page.getAttribute('[data-member-id=S1]', 'aria-label'), /: runs T1, T2, T3, T4, T5 and T6$/);
  const focused = () => page.evaluate(() => document.activeElement?.dataset.taskId);
  const clockBefore = await clock(page);
  await page.focus('[data-member-id=S1] [data-testid=task][tabindex="0"]');
  assert.equal(await focused(), 'T1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'T3');
  await page.keyboard.press('End');
  assert.equal(await focused(), 'T6');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 'T5');
  assert.equal(await clock(page), clockBefore, 'the arrow keys moved the focus, not the clock');
  const before = Math.max(...first.map((c) => c.progress));
  await page.click('[data-testid=step]');
  await page.click('[data-testid=step]');
  await play(page);
  await page.waitForFunction(
    (b) => [...document.querySelectorAll('[data-member-id=S2] [data-role=learner]')].some((c) => Number(c.dataset.progress) > b),
    before,
  );
  await page.waitForFunction(
    () => document.querySelectorAll('[data-member-id=S2] [data-role=active][data-up=true]').length === 3,
    null,
    { timeout: 20000 },
  );
  assert.equal(await page.$$eval('[data-member-id=S2] [data-role=learner]', (l) => l.length), 0);
  assert.equal(await page.$$eval('[data-member-id=S1] [data-role=active]', (l) => l.length), 3);
  // While playing, the log follows the group a quarter of a second at a time.
  await page.waitForFunction(() =>
    /S2\(assigned: \[T\d, T\d, T\d\], revoked: \[\], learning: \[\]\)/.test(document.querySelector('[data-testid=log]').textContent),
  );
});

test('a chip that changes hands travels there on the canvas, and does not when motion is off', async () => {
  const page = await open();
  // Steps to the next event and watches the group's canvas for the next half second: whether a
  // chip was on its way, and whether it had landed by the end.
  const step = () =>
    page.evaluate(
      () =>
        new Promise((done) => {
          const canvas = document.querySelector('#stage .group canvas');
          document.querySelector('[data-testid=step]').click();
          const start = performance.now();
          let flew = false;
          const look = () => {
            flew ||= canvas.dataset.moving === 'true';
            if (performance.now() - start < 500) requestAnimationFrame(look);
            else done({ flew, landed: canvas.dataset.moving === 'false' });
          };
          requestAnimationFrame(look);
        }),
    );
  const steps = async () => {
    await preset(page, 'scale-up-running');
    const seen = [];
    for (let i = 0; i < 8; i++) seen.push(await step());
    return seen;
  };
  const moving = await steps();
  assert.ok(moving.some((s) => s.flew), `a chip travelled in one of the steps: ${JSON.stringify(moving)}`);
  assert.ok(moving.every((s) => s.landed), 'and landed within half a second');
  await page.click('[data-testid=help-button]');
  await page.click('[data-testid=motion-toggle]');
  await page.keyboard.press('Escape');
  const still = await steps();
  assert.ok(still.every((s) => !s.flew), `with motion off, nothing travels: ${JSON.stringify(still)}`);
});

test('the chips are drawn again when what they show changes, not on every scroll', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  // Counts the clears of the group's canvas: each drawing of the chips starts with one.
  await page.evaluate(() => {
    const canvas = document.querySelector('#stage .group canvas.marks');
    window.clears = 0;
    const clear = CanvasRenderingContext2D.prototype.clearRect;
    CanvasRenderingContext2D.prototype.clearRect = function (...args) {
      if (this.canvas === canvas) window.clears++;
      return clear.apply(this, args);
    };
  });
  // Scrolls of a few pixels keep the whole group in view: the canvas shows what it showed.
  const scrolled = await page.evaluate(async () => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const at = [];
    for (const y of [2, 4, 6, 0]) {
      window.scrollTo(0, y);
      await frame();
      at.push(window.scrollY);
    }
    const group = document.querySelector('#stage .group').getBoundingClientRect();
    return { at, inView: group.top >= 0 && group.bottom <= window.innerHeight };
  });
  assert.deepEqual(scrolled.at, [2, 4, 6, 0], 'the page scrolled');
  assert.ok(scrolled.inView, 'with the group in view');
  assert.equal(await page.evaluate(() => window.clears), 0, 'no drawing again for a scroll');
  // The history's first steps change the chips (the first one only sends join requests): they
  // are drawn again.
  for (let i = 0; i < 4 && (await page.evaluate(() => window.clears)) === 0; i++) {
    await page.click('[data-testid=step]');
    await page.waitForTimeout(300);
  }
  assert.ok((await page.evaluate(() => window.clears)) > 0, 'a step that changes the chips draws them');
});

test('draining a member: it leaves once its learners took its tasks', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await playToRest(page);
  await page.click('[data-member-id=S3] [data-testid=drain]');
  await settled(page);
  assert.equal(await state(page, 'S3'), 'leaving');
  assert.ok(await page.$eval('[data-member-id=S3] [data-testid=drain]', (b) => b.disabled), 'draining twice is disabled');
  await fast(page);
  await play(page);
  await page.waitForFunction(() => document.querySelector('[data-member-id=S3]').dataset.state === 'left', null, {
    timeout: 20000,
  });
  assert.deepEqual(await chips(page, 'S3'), []);
  assert.ok(await page.$eval('[data-member-id=S3] [data-testid=crash]', (b) => b.disabled), 'a departed member cannot crash');
});

test('after pausing itself at rest, the reader\'s next command plays on', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await playToRest(page);
  assert.match(await page.textContent('[data-testid=notice]'), /nothing more will happen until you act/);
  await page.click('[data-member-id=S3] [data-testid=drain]');
  // Once the worker carried it out.
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'true');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'true', 'the drain plays on');
  assert.equal(await page.$('[data-testid=notice]'), null, 'the at-rest notice is gone');
  await page.waitForFunction(() => document.querySelector('[data-member-id=S3]').dataset.state === 'left', null, {
    timeout: 20000,
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'false');
  // After taking the clock in hand (a scrub), a command does not start playing.
  await seek(page, (await clock(page)) - 100);
  await page.click('[data-member-id=S2] [data-testid=crash]');
  await settled(page);
  assert.equal(await state(page, 'S2'), 'crashed');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false');
});

test('preferences: kept as JSON, and the first format is still read and moved over', async () => {
  const page = await open();
  await page.evaluate(() => {
    localStorage.removeItem('handoff.preferences.v2');
    localStorage.setItem('handoff.preferences.v1', 'theme=dark;motion=reduce;shortcuts=off');
  });
  await page.reload();
  await page.waitForSelector('[data-testid=member]');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  assert.equal(await page.getAttribute('html', 'data-motion'), 'reduce');
  const stored = await page.evaluate(() => [localStorage.getItem('handoff.preferences.v1'), localStorage.getItem('handoff.preferences.v2')]);
  assert.equal(stored[0], null, 'the first format was moved');
  assert.deepEqual(JSON.parse(stored[1]), { theme: 'dark', motion: false, shortcuts: false });
  await page.click('[data-testid=theme]');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'light');
  await page.reload();
  await page.waitForSelector('[data-testid=member]');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'light', 'the choice is remembered');
  await page.focus('body');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false', 'shortcuts still off');
});

test('crashing the leader: a new leader takes over after the session timeout', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.click('[data-testid=crash-leader]');
  // The crash is carried out by the worker: its moment comes back in a while.
  await page.waitForFunction(() => document.querySelector('[data-testid=member][data-member-id=S1]')?.dataset.state === 'crashed');
  assert.equal(await state(page, 'S1'), 'crashed');
  assert.ok(await page.$eval('[data-member-id=S1] [data-testid=crash]', (b) => b.disabled));
  await fast(page);
  await play(page);
  await page.waitForFunction(() => {
    const leader = document.querySelector('[data-testid=member][data-leader=true]');
    return leader && leader.dataset.memberId !== 'S1';
  }, null, { timeout: 20000 });
  const leader = await page.$eval('[data-testid=member][data-leader=true]', (e) => e.dataset.memberId);
  assert.equal(leader, 'S2', 'the longest-standing live member');
  // While playing, the log follows the group a quarter of a second at a time.
  await page.waitForFunction(() => /S2 takes over the leader from S1/.test(document.querySelector('[data-testid=log]').textContent));
});

test('scrubbing back shows the past exactly, and acting there forks the history', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await playToRest(page);
  const end = await clock(page);
  assert.equal(await generation(page), 4);
  assert.ok((await chips(page, 'S4')).some((c) => c.task === 'T1' && c.role === 'active'));
  await seek(page, 1000);
  assert.equal(await generation(page), 1);
  const s4 = await chips(page, 'S4');
  assert.deepEqual(s4.map((c) => [c.task, c.role]), [['T1', 'learner']]);
  assert.ok(s4[0].progress > 0 && s4[0].progress < 100);
  // The log only holds what happened by then.
  assert.equal(await page.$$eval('[data-testid=log] .round', (r) => r.length), 1);
  await seek(page, end);
  assert.equal(await generation(page), 4);
  // Act in the past: a fork, drawn on the timeline.
  await seek(page, 1000);
  await page.click('[data-testid=add-member]');
  await page.waitForSelector('[data-member-id=S5]');
  assert.equal(await page.$$eval('.timeline .fork', (f) => f.length), 1);
  assert.equal(await clock(page), 1000);
  assert.equal(await page.getAttribute('.scrub', 'data-frontier'), '1000', 'the future was dropped');
});

test('compare view: one command reaches every strategy, the table updates, the charts draw', async () => {
  const page = await open();
  await preset(page, 'scale-down-running');
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=compare]');
  const lanes = await page.$$eval('[data-testid=lane]', (l) => l.map((x) => x.dataset.strategy));
  assert.deepEqual(lanes, ['learner', 'kip441', 'cooperative', 'eager']);
  // Keep two strategies.
  await page.click('[data-testid=strategy-kip441]');
  await page.click('[data-testid=strategy-cooperative]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=lane]').length === 2);
  const downtime = () =>
    page.$$eval('[data-testid=compare-table] tbody tr', (rows) =>
      rows.map((r) => parseInt(r.querySelector('[data-metric="total downtime ms"]').textContent, 10)),
    );
  await page.click('[data-testid=lane][data-strategy=learner] [data-member-id=S3] [data-testid=crash]');
  // The lanes show the crash once the worker has carried it out.
  await page
    .waitForFunction(() => document.querySelectorAll('[data-testid=lane] [data-member-id=S3][data-state=crashed]').length === 2, null, {
      timeout: 5000,
    })
    .catch(() => {});
  for (const s of ['learner', 'eager']) {
    assert.equal(
      await page.$eval(`[data-testid=lane][data-strategy=${s}] [data-member-id=S3]`, (e) => e.dataset.state),
      'crashed',
      `${s} saw the crash`,
    );
  }
  const before = await downtime();
  await fast(page);
  await play(page);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=clock]').textContent) > 4000);
  await pause(page);
  const later = await downtime();
  assert.ok(later.every((d, i) => d > before[i]), `downtime grew in every lane: ${before} -> ${later}`);
  // Charts: count pixels of the strategies' colours on the cumulative chart.
  await page.waitForTimeout(200);
  const colours = await page.$eval('[data-testid=chart-cumulative] canvas', (c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const count = (r, g, b) => {
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - g) < 8 && Math.abs(data[i + 2] - b) < 8) n++;
      }
      return n;
    };
    return { learner: count(0, 114, 178), eager: count(213, 94, 0) };
  });
  assert.ok(colours.learner > 50 && colours.eager > 50, `both lines drawn: ${JSON.stringify(colours)}`);
  const availability = await page.$eval('[data-testid=chart-availability] canvas', (c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sky = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] === 86 && data[i + 1] === 180 && data[i + 2] === 233) sky++;
    return sky;
  });
  assert.ok(availability > 500, `availability bars drawn (${availability} px)`);
  // The SVG export holds the same lines.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-svg-cumulative]')]);
  const svg = readFileSync(await download.path(), 'utf8');
  assert.match(svg, /^<svg/);
  assert.match(svg, /stroke="#0072B2"/i);
  assert.match(svg, /stroke="#D55E00"/i);
  // Hover shows values; a click moves the clock there.
  const box = await (await page.$('[data-testid=chart-cumulative] canvas')).boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await page.waitForSelector('[data-testid=chart-hover]');
  assert.match(await page.textContent('[data-testid=chart-hover]'), /learner: \d+ ms down/);
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.5);
  const t = await clock(page);
  assert.ok(t > 0 && t < 4000, `clicking the chart moved the clock to ${t}`);
  // Back from the sweep panel (which keeps the two lanes), a third lane added: the charts stay,
  // and its line is drawn (kip441's purple: in the legend, where no other line covers it).
  await page.click('[data-testid=sweep-toggle]');
  await page.waitForSelector('[data-testid=sweep]');
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=chart-cumulative] canvas');
  assert.equal(await page.$$eval('[data-testid=lane]', (l) => l.length), 2);
  await page.click('[data-testid=strategy-kip441]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=lane]').length === 3);
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=chart-cumulative] canvas');
    if (!c) return false;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - 204) < 8 && Math.abs(data[i + 1] - 121) < 8 && Math.abs(data[i + 2] - 167) < 8) n++;
    }
    return n > 10;
  }, null, { timeout: 5000 });
});

/** The first pixel of a PNG file as [r, g, b]: row 0's first pixel is stored as is whatever
 * the row's filter (it has no neighbours to be predicted from). */
function firstPixel(png) {
  let at = 8;
  let colourType = 0;
  const data = [];
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') colourType = body[9];
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  assert.ok(colourType === 2 || colourType === 6, `an RGB or RGBA PNG (colour type ${colourType})`);
  const rows = inflateSync(Buffer.concat(data));
  return [...rows.subarray(1, 4)];
}

test('in the dark theme the charts are drawn on the dark panel, and a PNG export stays light', async () => {
  const page = await open('', { colorScheme: 'dark' });
  await preset(page, 'scale-down-running');
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=chart-cumulative] canvas');
  await page.waitForTimeout(200);
  const corner = await page.$eval('[data-testid=chart-cumulative] canvas', (c) => [...c.getContext('2d').getImageData(2, 2, 1, 1).data]);
  assert.deepEqual(corner, [0x1e, 0x1e, 0x23, 255], 'the dark panel behind the chart');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-png-cumulative]')]);
  assert.equal(download.suggestedFilename(), 'handoff-cumulative.png');
  assert.deepEqual(firstPixel(readFileSync(await download.path())), [255, 255, 255], 'the export on white');
});

test('a share link reopens exactly the same view', async () => {
  const page = await open();
  await preset(page, 'scale-down-running');
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=add-member]');
  await page.click('[data-testid=step]');
  await page.click('[data-testid=share]');
  const link = await page.inputValue('[data-testid=share-url]');
  assert.match(link, /#s=[A-Za-z0-9+\-$]+$/);
  const snapshot = async (p) => ({
    clock: await clock(p),
    generation: await generation(p),
    members: await p.$$eval('[data-testid=member]', (m) => m.map((x) => [x.dataset.memberId, x.dataset.state, x.dataset.leader])),
    chips: await p.$$eval('[data-testid=task]', (c) => c.map((x) => [x.dataset.taskId, x.dataset.role, x.dataset.progress ?? ''])),
    log: await p.textContent('[data-testid=log]'),
  });
  const original = await snapshot(page);
  const other = await site.page();
  await other.goto(link);
  await other.waitForSelector('[data-testid=member]');
  assert.deepEqual(await snapshot(other), original);
  assert.match(await other.textContent('[data-testid=notice]'), /shared session/);
});

test('a damaged, foreign or future link shows a clear message and a working default', async () => {
  for (const fragment of ['s=garbage!!', 's=N4XyA', 's=' + 'A'.repeat(40), 'nonsense']) {
    const page = await open('#' + fragment);
    await page.waitForSelector('[data-testid=error]');
    assert.match(await page.textContent('[data-testid=error]'), /link could not be opened/);
    assert.ok((await page.$$('[data-testid=member]')).length > 0, 'the default scenario is shown');
    await page.click('[data-testid=step]');
    await settled(page);
    assert.ok((await clock(page)) > 0, 'and it works');
  }
});

test('an invalid import is refused with the field named, and the session is kept', async () => {
  const page = await open();
  await preset(page, 'leader-transfer');
  await page.click('[data-testid=step-round]');
  const kept = await clock(page);
  const bad = {
    name: 'x',
    tasks: [{ id: 'T1', write_rate: -5 }],
  };
  await page.setInputFiles('[data-testid=import]', {
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bad)),
  });
  await page.waitForSelector('[data-testid=error]');
  const error = await page.textContent('[data-testid=error]');
  assert.match(error, /bad\.json/);
  assert.match(error, /tasks\[0\]\.write_rate/);
  assert.equal(await clock(page), kept);
  assert.equal(await page.$eval('[data-testid=preset]', (s) => s.value), 'leader-transfer');
  // A valid file (the command line's format) is taken.
  const good = readFileSync('scenarios/scale-up-empty.json');
  await page.setInputFiles('[data-testid=import]', { name: 'good.json', mimeType: 'application/json', buffer: good });
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.textContent.includes('Imported good.json'));
  assert.equal(await clock(page), 0);
});

test('an exported scenario runs in the command line, with the commands a person added', async () => {
  const page = await open();
  await preset(page, 'scale-down-running');
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=add-member]');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export]')]);
  const path = await download.path();
  const file = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(file.name, 'Scale Down Running Application');
  assert.deepEqual(file.events.map((e) => e.join ?? e.drain), ['S2', 'S4']);
  const cli = ['target/debug/handoff', 'target/release/handoff'].find(existsSync);
  assert.ok(cli, 'the command line is built (cargo test builds it)');
  const out = execFileSync(cli, ['run', path, '--format', 'json'], { encoding: 'utf8' });
  const run = JSON.parse(out);
  assert.ok(Object.keys(run.metrics.assignment).includes('S4'), 'S4 took part in the CLI run too');
  // And the log exports in the seed's notation.
  const [log] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-log]')]);
  assert.match(readFileSync(await log.path(), 'utf8'), /^#First Rebalance/);
});

test('the session comes back after a reload, and new session starts clean', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=add-member]');
  const t = await clock(page);
  await page.reload();
  await page.waitForSelector('[data-member-id=S6]');
  assert.equal(await clock(page), t);
  assert.match(await page.textContent('[data-testid=notice]'), /Restored your last session/);
  await page.click('[data-testid=new-session]');
  await page.waitForFunction(() => !document.querySelector('[data-member-id=S6]'));
  await page.reload();
  await page.waitForSelector('[data-testid=member]');
  assert.equal(await page.$('[data-member-id=S6]'), null);
});

test('the autosave is the session as JSON, and compressed when the storage has no room for the JSON', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.click('[data-testid=step-round]');
  // The clock read once the step has landed: a save of the clock before it may never come.
  await settled(page);
  const t = await clock(page);
  const saved = () => page.evaluate(() => localStorage.getItem('handoff.session.v1'));
  await page.waitForFunction((t) => localStorage.getItem('handoff.session.v1')?.includes(`"clock":${t},`), t);
  const json = JSON.parse(await saved());
  assert.equal(json.v, 1);
  assert.equal(json.clock, t);
  assert.equal(json.scenario.name, JSON.parse(readFileSync('scenarios/scale-up-running.json', 'utf8')).name);
  // A storage that refuses the JSON (as a full one would) gets the compressed text instead.
  await page.evaluate(() => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === 'handoff.session.v1' && value.startsWith('{')) throw new DOMException('no room', 'QuotaExceededError');
      return set.call(this, key, value);
    };
  });
  await page.click('[data-testid=add-member]');
  await page.waitForFunction(() => !localStorage.getItem('handoff.session.v1').startsWith('{'));
  assert.match(await saved(), /^[A-Za-z0-9+$-]+$/, 'a share link\'s alphabet');
  await page.reload();
  await page.waitForSelector('[data-member-id=S6]');
  assert.equal(await clock(page), t);
  assert.match(await page.textContent('[data-testid=notice]'), /Restored your last session/);
  // Restored, it is saved as JSON again.
  await page.waitForFunction(() => localStorage.getItem('handoff.session.v1').startsWith('{'));
});

test('keyboard: space plays, arrows step, numbers set the speed, ? opens help, shortcuts can be turned off', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.focus('body');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'true');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false');
  // A step moves the clock once the worker has answered it.
  const clockPast = (from, sign) =>
    page.waitForFunction(
      ([t, s]) => s * (Number(document.querySelector('[data-testid=clock]').textContent) - t) > 0,
      [from, sign],
      { timeout: 10000 },
    );
  const t0 = await clock(page);
  await page.keyboard.press('ArrowRight');
  await clockPast(t0, 1);
  const t1 = await clock(page);
  assert.ok(t1 > t0, 'right arrow steps forward');
  await page.keyboard.press('ArrowLeft');
  await clockPast(t1, -1);
  assert.ok((await clock(page)) < t1, 'left arrow steps back');
  await page.keyboard.press('7');
  assert.equal(await page.$eval('[data-testid=speed]', (s) => s.value), '16');
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=help]');
  await page.click('[data-testid=shortcuts-toggle]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=help]', { state: 'detached' });
  await page.focus('body');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false', 'shortcuts are off');
  // The choice is remembered.
  await page.reload();
  await page.waitForSelector('[data-testid=member]');
  await page.focus('body');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false', 'still off after a reload');
  // Every control can be reached with the keyboard.
  const focusable = await page.$$eval('button, select, input', (all) => all.filter((e) => e.tabIndex < 0).length);
  assert.equal(focusable, 0);
});

test('embed mode: compact chrome, a chosen preset, paused unless autoplay', async () => {
  const page = await open('?embed=1&preset=scale-down-running');
  assert.ok(await page.$eval('.app', (a) => a.classList.contains('embed')));
  assert.equal(await page.$eval('[data-testid=preset]', (s) => s.value), 'scale-down-running');
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-pressed'), 'false');
  assert.equal(await page.isVisible('[data-testid=export]'), false);
  const playing = await open('?embed=1&preset=leader-transfer&autoplay=1');
  assert.equal(await playing.getAttribute('[data-testid=play]', 'aria-pressed'), 'true');
  await playing.waitForFunction(() => Number(document.querySelector('[data-testid=clock]').textContent) > 0);
  // An embed never overwrites the full playground's saved session.
  assert.equal(await playing.evaluate(() => localStorage.getItem('handoff.session.v1')), null);
});

test('a guided tour walks end to end, each step at its real event', async () => {
  const page = await open();
  await page.selectOption('[data-testid=tour-select]', 'scale-down-running');
  await page.waitForSelector('[data-testid=tour]');
  const seen = [];
  for (;;) {
    const step = Number(await page.getAttribute('[data-testid=tour]', 'data-step'));
    seen.push({ step, clock: await clock(page), caption: await page.textContent('[data-testid=tour-caption]') });
    if (!(await page.$('[data-testid=tour-next]'))) break;
    await page.click('[data-testid=tour-next]');
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid=tour]').dataset.step) === s + 1, step);
  }
  assert.equal(seen.length, 4);
  assert.ok(seen.every((s, i) => i === 0 || s.clock >= seen[i - 1].clock), 'the clock moves forward');
  assert.equal(new Set(seen.map((s) => s.caption)).size, 4);
  // The last step is S2 shutting down: it has left by then.
  assert.equal(await state(page, 'S2'), 'left');
  await page.click('[data-testid=tour-back]');
  assert.equal(await page.getAttribute('[data-testid=tour]', 'data-step'), '2');
  await page.click('[data-testid=tour-leave]');
  await page.waitForSelector('[data-testid=tour]', { state: 'detached' });
  await play(page);
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'true');
});

test('editing the configuration and the tasks restarts with them', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=config-open]');
  await page.waitForSelector('[data-testid=apply-config]');
  await page.fill('[data-testid=config-rebalance]', '2000');
  await page.dispatchEvent('[data-testid=config-rebalance]', 'change');
  await page.click('text=+ task');
  await page.click('[data-testid=apply-config]');
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.textContent.includes('new configuration'));
  assert.equal(await clock(page), 0);
  assert.equal(await page.$eval('[data-testid=preset]', (s) => s.value), '', 'now a custom scenario');
  // Six tasks now; the first round lasts 2000 ms: still syncing at 1500 ms.
  await page.click('[data-testid=step]');
  await page.click('[data-testid=step]');
  await settled(page);
  assert.equal(await clock(page), 2000, 'the round closes its join phase at 1000 ms and syncs at 2000 ms');
  const tasks = await page.$$eval('[data-testid=task][data-role=active]', (c) => c.map((x) => x.dataset.taskId).sort());
  assert.ok(tasks.includes('T6'), `the new task runs: ${tasks}`);
  // An impossible value is named beside its field as it is typed, kept as typed, and not
  // applied: the session is kept.
  await page.fill('[data-testid=config-rebalance]', '0');
  await page.waitForSelector('[data-testid=config-error]');
  assert.match(await page.textContent('[data-testid=config-error]'), /config\.rebalance_ms/);
  await page.click('[data-testid=apply-config]');
  await page.waitForSelector('[data-testid=config-problem]');
  assert.equal(await page.inputValue('[data-testid=config-rebalance]'), '0');
  assert.equal(await clock(page), 2000);
});

test('a tour plays in an embed and travels in a share link', async () => {
  const page = await open('?embed=1&tour=leader-transfer');
  await page.waitForSelector('[data-testid=tour]');
  await page.click('[data-testid=tour-next]');
  await page.click('[data-testid=tour-next]');
  await page.waitForFunction(() => document.querySelector('[data-testid=tour]').dataset.step === '2');
  // The step shows at once; its moment once the worker has sent it.
  await settled(page);
  // At this step the new leader has assigned: S2 leads, S4 runs T1.
  assert.equal(await page.getAttribute('[data-member-id=S2]', 'data-leader'), 'true');
  assert.ok((await chips(page, 'S4')).some((c) => c.task === 'T1' && c.role === 'active'));
  assert.ok(await page.$eval('[data-member-id=S4]', (e) => e.classList.contains('highlight')), 'S4 is highlighted');
  await page.click('[data-testid=share]');
  const link = await page.inputValue('[data-testid=share-url]');
  const other = await site.page();
  await other.goto(link.replace('embed=1&', ''));
  await other.waitForSelector('[data-testid=tour]');
  assert.equal(await other.getAttribute('[data-testid=tour]', 'data-step'), '2');
  assert.equal(await clock(other), await clock(page));
});

test('the task timeline shows every task over time, and a click on it moves the clock', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await playToRest(page);
  const rest = Number(await clock(page));
  const until = async () => Number(await page.getAttribute('[data-testid=task-timeline]', 'data-until'));
  // Out of the view, the worker was not asked for it while playing: it reads to before the run.
  assert.ok((await until()) < rest / 2, `read to ${await until()} ms, the clock at ${rest} ms`);
  // Pixels of the running colour (the active blue) drawn for the rows.
  const blue = () =>
    page.$eval('[data-testid=task-timeline-canvas]', (c) => {
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] === 0 && data[i + 1] === 114 && data[i + 2] === 178) n++;
      return n;
    });
  const line = () => page.$eval('.tt-view .clock-line', (l) => parseFloat(l.style.left));
  // Below the fold, the canvas is left as it was drawn before the run (hidden) and its clock
  // line does not move.
  const canvas = await page.$('[data-testid=task-timeline-canvas]');
  assert.ok(await canvas.evaluate((c) => c.classList.contains('away') && getComputedStyle(c).visibility === 'hidden'));
  assert.ok((await blue()) < 1000, `nothing of the run drawn out of view (${await blue()} px)`);
  const unseen = await line();
  // Scrolled to, it shows the run to the clock.
  await canvas.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => !document.querySelector('[data-testid=task-timeline-canvas]').classList.contains('away'));
  await page.waitForFunction((rest) => Number(document.querySelector('[data-testid=task-timeline]').dataset.until) >= rest / 2, rest);
  assert.equal(await page.getAttribute('[data-testid=task-timeline]', 'data-rows'), '5');
  assert.ok((await blue()) > 1000, `running spans drawn (${await blue()} px)`);
  assert.ok((await line()) > unseen, `the clock line moved to the clock (${unseen} -> ${await line()} px)`);
  const box = await canvas.boundingBox();
  // Below the time axis, in the first row.
  await page.mouse.move(box.x + box.width * 0.3, box.y + 26);
  await page.waitForSelector('[data-testid=timeline-hover]');
  assert.match(await page.textContent('[data-testid=timeline-hover]'), /^T\d+ at .* \u00B7 (running on S\d|restoring|down)/);
  const end = await clock(page);
  await page.mouse.click(box.x + box.width * 0.3, box.y + 26);
  const t = await clock(page);
  assert.ok(t > 0 && t < end, `the click moved the clock to ${t} (end ${end})`);
});

test('the protocol strip lights each step of a round, with its causes', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  const step = () => page.$eval('[data-testid=protocol] .step.on', (s) => s.dataset.step).catch(() => null);
  assert.equal(await page.getAttribute('[data-testid=protocol]', 'data-phase'), 'members joining');
  assert.equal(await step(), 'join');
  assert.match(await page.textContent('[data-testid=protocol-causes]'), /S4 joins/);
  await page.click('[data-testid=step]');
  await settled(page);
  assert.equal(await page.getAttribute('[data-testid=protocol]', 'data-phase'), 'leader assigned, members syncing');
  assert.equal(await step(), 'sync');
  assert.ok(await page.$('[data-testid=protocol] .step.done[data-step=join]'), 'joining is done');
  await page.click('[data-testid=step]');
  await settled(page);
  assert.equal(await page.getAttribute('[data-testid=protocol]', 'data-phase'), 'stable');
  assert.equal(await step(), null);
});

test('a replay bar tells its percent and time to ready on focus, and the log follows the round', async () => {
  const page = await open();
  await preset(page, 'scale-up-running');
  await seek(page, 900);
  const learner = '[data-member-id=S4] [data-testid=task][data-role=learner]';
  await page.focus(learner);
  const tip = await page.$eval(`${learner} [data-testid=replay-tip]`, (t) => [getComputedStyle(t).display, t.textContent]);
  assert.notEqual(tip[0], 'none', 'shown on focus');
  assert.match(tip[1], /^\d+% \u00B7 ready in \d+(\.\d)? s$/);
  assert.match(await page.getAttribute(learner, 'aria-label'), /% replayed, .* ready in about/);
  await playToRest(page);
  const followed = await page.$eval('[data-testid=log]', (l) => {
    const current = l.querySelector('.round.current').parentElement;
    return current.offsetTop >= l.scrollTop - 1 && current.offsetTop < l.scrollTop + l.clientHeight;
  });
  assert.ok(followed, 'the current round is in view');
  const wraps = await page.$eval('[data-testid=log]', (l) => l.scrollWidth <= l.clientWidth);
  assert.ok(wraps, 'no line is cut off sideways');
});

test('a large group is drawn compactly, and a task or member can be found in it', async () => {
  const page = await open();
  const members = Array.from({ length: 18 }, (_, i) => ({ id: `S${i + 1}` }));
  const initial = {};
  for (let t = 0; t < 200; t++) (initial[`S${(t % 18) + 1}`] ||= []).push(`T${t + 1}`);
  await importScenario(page, {
    name: 'Large',
    tasks: Array.from({ length: 200 }, (_, i) => ({ id: `T${i + 1}`, changelog: 40000 })),
    members,
    initial,
    events: [{ at_ms: 0, join: 'S19' }, { at_ms: 0, join: 'S20' }],
  });
  await zoomIn(page);
  // No chip per task: each member's marks name one task at a time, the one the keyboard is on.
  assert.equal(await page.$$eval('[data-testid=mini]', (c) => c.length), 20, 'a drawing of marks per member');
  assert.equal(await page.$$eval('[data-testid=mini] [data-testid=task]', (t) => t.length), 18, 'one named task per member holding any');
  assert.equal(await page.$$eval('[data-testid=task]', (t) => t.length), 18);
  assert.match(await page.getAttribute('[data-member-id=S1]', 'aria-label'), /: 12 active \(0 restoring\), 0 learning, 0 standby/);
  // The marks are drawn on the group's canvas: what a pixel there shows, as [r, g, b, alpha],
  // at mark `index` of a member (its centre, or `dx` pixels to the left of it).
  const pixel = (member, index, dx = 0) =>
    page.evaluate(([member, index, dx]) => {
      const mini = document.querySelector(`[data-member-id=${member}] [data-testid=mini]`).getBoundingClientRect();
      const canvas = document.querySelector('.group canvas.marks');
      const c = canvas.getBoundingClientRect();
      const x = mini.left + (index % 16) * 14 + 7 - dx;
      const y = mini.top + Math.floor(index / 16) * 14 + 7;
      const ratio = canvas.width / c.width;
      return [...canvas.getContext('2d').getImageData(Math.floor((x - c.left) * ratio), Math.floor((y - c.top) * ratio), 1, 1).data];
    }, [member, index, dx]);
  // A theme colour as [r, g, b, 255].
  const colour = (name) =>
    page.evaluate((name) => {
      const probe = document.createElement('div');
      probe.style.color = `var(${name})`;
      document.body.append(probe);
      const rgb = getComputedStyle(probe).color.match(/\d+/g).map(Number);
      probe.remove();
      return [...rgb.slice(0, 3), 255];
    }, name);
  const accent = await colour('--accent');
  for (let i = 0; i < 12; i++) assert.deepEqual(await pixel('S1', i), accent, `S1's active mark ${i}`);
  const panel = await colour('--panel');
  assert.deepEqual(await pixel('S1', 12), panel, 'no thirteenth mark: S1 runs twelve tasks');
  // The ring of a found task passes half a mark's width left of its centre.
  assert.deepEqual(await pixel('S2', 0, 6.5), panel, 'nothing found, nothing ringed');
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=step]');
  await page.fill('[data-testid=find]', 'S20');
  await page.waitForFunction(() => document.querySelector('[data-testid=found]').textContent.startsWith('S20: live'));
  assert.match(await page.textContent('[data-testid=found]'), /S20: live, 0 active \(0 restoring\), \d+ learning/);
  await page.fill('[data-testid=find]', 't1');
  await page.waitForFunction(() => document.querySelector('[data-testid=found]').textContent.startsWith('T1: active on S1'));
  await page.fill('[data-testid=find]', 'T999');
  await page.waitForFunction(() => document.querySelector('[data-testid=found]').textContent === 'No task or member is named "T999".');
  // A mark says what it is under the pointer, and a click finds its task.
  const box = await (await page.$('[data-member-id=S2] [data-testid=mini]')).boundingBox();
  await page.mouse.move(box.x + 5, box.y + 5);
  await page.waitForSelector('[data-testid=mini-hover]');
  assert.match(await page.textContent('[data-testid=mini-hover]'), /^T2 on S2 \u00B7 active/);
  await page.mouse.click(box.x + 5, box.y + 5);
  await page.waitForFunction(() => document.querySelector('[data-testid=found]').textContent.startsWith('T2: active on S2'));
  // The canvas is drawn at the animation frame after the render.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  assert.deepEqual(await pixel('S2', 0, 6.5), await colour('--ink'), 'the task found is ringed');
  // The keyboard reaches every task: a member's marks take the focus, the arrow keys, Home
  // and End move over them (not the clock), and Enter finds the task.
  const clockBefore = await page.textContent('[data-testid=clock]');
  const marks = '[data-member-id=S3] [data-testid=mini]';
  const option = `${marks} [data-testid=task]`;
  await page.focus(marks);
  const first = await page.getAttribute(option, 'data-task-id');
  const count = Number(await page.getAttribute(option, 'aria-setsize'));
  assert.ok(count > 2, `S3 holds ${count} tasks`);
  assert.equal(await page.getAttribute(option, 'aria-posinset'), '1');
  assert.equal(await page.getAttribute(marks, 'aria-activedescendant'), await page.getAttribute(option, 'id'));
  assert.match(await page.getAttribute(option, 'aria-label'), new RegExp(`^${first} on S3 \u00B7 `));
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute(option, 'aria-posinset'), '2');
  const second = await page.getAttribute(option, 'data-task-id');
  assert.notEqual(second, first);
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute(option, 'aria-posinset'), String(count));
  const last = await page.getAttribute(option, 'data-task-id');
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector('[data-testid=found]').textContent.startsWith(`${t}: `), last);
  await page.focus(marks);
  await page.keyboard.press('Home');
  assert.equal(await page.getAttribute(option, 'data-task-id'), first);
  assert.equal(await page.textContent('[data-testid=clock]'), clockBefore, 'the keys did not step the clock');
  // The mark the keyboard is on is outlined, over the canvas.
  assert.notEqual(await page.$eval(option, (o) => getComputedStyle(o).outlineStyle), 'none');
  // The marks take their colours from the theme.
  await page.click('[data-testid=theme]');
  assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
  const dark = await colour('--accent');
  assert.notDeepEqual(dark, accent);
  await page.waitForFunction(
    ([dark]) => {
      const canvas = document.querySelector('.group canvas.marks');
      const mini = document.querySelector('[data-member-id=S1] [data-testid=mini]').getBoundingClientRect();
      const c = canvas.getBoundingClientRect();
      const ratio = canvas.width / c.width;
      const d = canvas.getContext('2d').getImageData(Math.floor((mini.left + 7 - c.left) * ratio), Math.floor((mini.top + 7 - c.top) * ratio), 1, 1).data;
      return d[0] === dark[0] && d[1] === dark[1] && d[2] === dark[2];
    },
    [dark],
  );
  assert.deepEqual(await pixel('S1', 0), dark, "active marks in the dark theme's active colour");
});

test('a group too large for the view opens as an overview that fits it, and zooms into a member or a zone and back', async () => {
  const page = await open();
  await importScenario(page, { ...HEAVY, members: HEAVY.members.map((m, i) => ({ ...m, zone: 'ab'[i % 2] })) }, 'heavy.json', 120000);
  await page.waitForSelector('.group.overview');
  const tiles = await page.$$eval('[data-testid=member]', (m) => m.map((x) => x.tagName));
  assert.equal(tiles.length, 50);
  assert.ok(tiles.every((t) => t === 'BUTTON'), 'a tile per member, a button each');
  assert.equal(await page.$$eval('[data-testid=crash]', (c) => c.length), 0, 'no card buttons in the overview');
  // Scrolled to, the whole group is in view below the find box that stays on top.
  await page.$eval('.group', (g) => window.scrollTo(0, g.getBoundingClientRect().top + scrollY - 50));
  const [bottom, view] = await page.$eval('.group', (g) => [g.getBoundingClientRect().bottom, innerHeight]);
  assert.ok(bottom <= view, `the whole group in view (${bottom} of ${view})`);
  assert.deepEqual(await page.$$eval('[data-testid=zone]', (z) => z.map((x) => [x.dataset.zone, x.querySelectorAll('[data-testid=member]').length])), [['a', 23], ['b', 22], [undefined, 5]], 'the joiners have no zone');
  // When a round hands tasks to the new members, each travels from tile to tile.
  assert.equal(await page.getAttribute('.group canvas.marks', 'data-moving'), 'false');
  await page.selectOption('[data-testid=speed]', '16');
  await page.click('[data-testid=play]');
  await page.waitForSelector('.group canvas.marks[data-moving=true]', { state: 'attached', timeout: 20000 });
  await pause(page);
  await seekFar(page, 6500);
  assert.equal(await page.getAttribute('[data-member-id=S7]', 'data-state'), 'crashed');
  assert.match(await page.getAttribute('[data-member-id=S1]', 'aria-label'), /^member S1, live, zone a(, leader)?: \d+ active \(\d+ restoring\), \d+ learning, \d+ standby$/);
  // The canvas draws a tile's actives in the active colour, on the first of its three bars.
  const accent = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = 'var(--accent)';
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color.match(/\d+/g).map(Number);
    probe.remove();
    return rgb.slice(0, 3);
  });
  const first = await page.evaluate(() => {
    const tile = document.querySelector('[data-member-id=S2]').getBoundingClientRect();
    const canvas = document.querySelector('.group canvas.marks');
    const c = canvas.getBoundingClientRect();
    const ratio = canvas.width / c.width;
    const [x, y] = [tile.left + 5, tile.top + (tile.height >= 24 ? 19 : 5)];
    return [...canvas.getContext('2d').getImageData(Math.floor((x - c.left) * ratio), Math.floor((y - c.top) * ratio), 1, 1).data].slice(0, 3);
  });
  assert.deepEqual(first, accent, "S2's actives bar");
  // The arrow keys move over the tiles (the first is the tab stop), not the clock.
  assert.equal(await page.getAttribute('[data-member-id=S1]', 'tabindex'), '0');
  assert.equal(await page.getAttribute('[data-member-id=S3]', 'tabindex'), '-1');
  const clock = await page.textContent('[data-testid=clock]');
  await page.focus('[data-member-id=S1]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.memberId), 'S3', 'the next tile of zone a');
  const row = await page.$eval('[data-member-id=S3]', (t) => t.getBoundingClientRect().top);
  await page.keyboard.press('ArrowDown');
  const below = await page.evaluate(() => [document.activeElement.dataset.zone, document.activeElement.getBoundingClientRect().top]);
  assert.ok(below[0] === 'a' && below[1] > row, `down a row of zone a: ${below}`);
  assert.equal(await page.textContent('[data-testid=clock]'), clock, 'the arrows did not step the clock');
  // The pointer over a tile gives it its tooltip: its words and what a click does.
  assert.equal(await page.getAttribute('[data-member-id=S11]', 'title'), null);
  await page.hover('[data-member-id=S11]');
  const words = await page.getAttribute('[data-member-id=S11]', 'aria-label');
  assert.equal(await page.getAttribute('[data-member-id=S11]', 'title'), `${words}\n(click: its actions; double-click: zoom into its card)`);
  // A click selects the member: it is found, and its actions open by its tile.
  await page.click('[data-member-id=S11]');
  await page.waitForSelector('[data-testid=tile-actions]');
  assert.match(await page.textContent('[data-testid=found]'), /^S11: live/);
  assert.equal(await page.getAttribute('[data-member-id=S11]', 'aria-expanded'), 'true');
  await page.click('[data-testid=tile-actions] [data-testid=crash]');
  await page.waitForFunction(() => document.querySelector('[data-member-id=S11]').dataset.state === 'crashed');
  await page.click('[data-testid=tile-actions] .close');
  await page.waitForSelector('[data-testid=tile-actions]', { state: 'detached' });
  await page.click('[data-member-id=S11]');
  await page.waitForSelector('[data-testid=tile-actions]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=tile-actions]', { state: 'detached' });
  // A double-click zooms into the member's card, in the middle of the view, with the focus.
  await page.dblclick('[data-member-id=S12]');
  await page.waitForSelector('[data-testid=member][data-member-id=S12] [data-testid=crash]');
  assert.equal(await page.$('.group.overview'), null);
  const [top, end, height] = await page.$eval('[data-member-id=S12]', (e) => [e.getBoundingClientRect().top, e.getBoundingClientRect().bottom, innerHeight]);
  assert.ok(top >= 0 && end <= height, `S12's card in view (${top}..${end} of ${height})`);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.memberId), 'S12');
  assert.equal(await page.getAttribute('[data-testid=zoom-in]', 'aria-pressed'), 'true');
  // The keys: - out, + into the tile with the focus.
  await page.keyboard.press('-');
  await page.waitForSelector('.group.overview');
  await page.focus('[data-member-id=S30]');
  await page.keyboard.press('+');
  await page.waitForSelector('[data-testid=member][data-member-id=S30] [data-testid=drain]');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.memberId), 'S30');
  // Ctrl and the wheel (a pinch): out, then in over a tile.
  const wheel = async (dy) => {
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, dy);
    await page.keyboard.up('Control');
  };
  await page.mouse.move(400, 400);
  await wheel(120);
  await page.waitForSelector('.group.overview');
  const b = await (await page.$('[data-member-id=S5]')).boundingBox();
  assert.ok(b.y >= 0 && b.y + b.height <= 720, `zoomed out, the overview is in view (${b.y})`);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await wheel(-120);
  await page.waitForSelector('[data-testid=member][data-member-id=S5] [data-testid=crash]');
  // A zone's + zooms into its band.
  await page.click('[data-testid=zoom-out]');
  await page.waitForSelector('.group.overview');
  await page.click('[data-testid=zone][data-zone=b] [data-testid=zoom-zone]');
  await page.waitForSelector('.group.placed:not(.overview)');
  const zone = await page.$eval('[data-testid=zone][data-zone=b]', (z) => z.getBoundingClientRect().top);
  assert.ok(zone < 720 && zone > -5000, 'zone b brought into view');
  // Find outlines a member's tile, wherever it is.
  await page.click('[data-testid=zoom-out]');
  await page.fill('[data-testid=find]', 'S44');
  await page.waitForFunction(() => document.querySelector('[data-member-id=S44]').classList.contains('highlight'));
  // Another scenario opens as it fits: a seed preset, as cards.
  await page.click('[data-testid=new-session]');
  await page.waitForSelector('[data-testid=member] [data-testid=crash]');
  assert.equal(await page.$('[data-testid=zoom-bar]'), null);
});

test('at a change of zoom the members in view travel from their tiles to their cards and back, unless motion is off', async () => {
  const page = await open();
  await importScenario(page, HEAVY, 'heavy.json', 120000);
  await page.waitForSelector('.group.overview');
  // Where a member is drawn, from the group's top left corner.
  const placeOf = (selector) =>
    page.evaluate((selector) => {
      const g = document.querySelector('.group').getBoundingClientRect();
      const r = document.querySelector(selector).getBoundingClientRect();
      return [r.left - g.left, r.top - g.top, r.width, r.height].map(Math.round);
    }, selector);
  const tile = await placeOf('[data-member-id=S2]');
  // Zoom, and read the travellers as they set off: where S2's outline starts from (its
  // transitions' first keyframes) and where it goes (its style).
  const zoomAndLook = (button) =>
    page.evaluate((button) => {
      document.querySelector(`[data-testid=${button}]`).click();
      const sides = ['left', 'top', 'width', 'height'];
      return new Promise((done) => {
        const started = performance.now();
        const look = () => {
          const ghosts = [...document.querySelectorAll('[data-testid=zoom-ghost]')];
          const s2 = ghosts.find((x) => x.dataset.memberId === 'S2');
          if (!s2 && performance.now() - started < 250) return requestAnimationFrame(look);
          if (!s2) return done({ count: ghosts.length });
          const to = Object.fromEntries(sides.map((k) => [k, parseFloat(s2.style[k])]));
          const from = { ...to };
          for (const a of s2.getAnimations()) from[a.transitionProperty] = parseFloat(a.effect.getKeyframes()[0][a.transitionProperty]);
          done({ count: ghosts.length, from: sides.map((k) => Math.round(from[k])), to: sides.map((k) => Math.round(to[k])) });
        };
        look();
      });
    }, button);
  const grown = await zoomAndLook('zoom-in');
  await page.waitForSelector('.group.placed:not(.overview)');
  const card = await placeOf('[data-testid=member][data-member-id=S2]');
  assert.ok(grown.count > 1, `the members in view travel (${grown.count})`);
  const near = (a, b, slack) => a.every((v, i) => Math.abs(v - b[i]) <= slack);
  assert.ok(near(grown.from, tile, 1), `S2 starts from its tile: ${grown.from} against ${tile}`);
  assert.ok(near(grown.to, card, 1), `and goes to its card: ${grown.to} against ${card}`);
  await page.waitForFunction(() => !document.querySelector('[data-testid=zoom-ghost]'), null, { timeout: 2000 });
  // Back out: the cards shrink into their tiles.
  const shrunk = await zoomAndLook('zoom-out');
  await page.waitForSelector('.group.overview');
  assert.ok(shrunk.count > 1 && near(shrunk.to, tile, 1) && near(shrunk.from, card, 1), `S2 goes back to its tile: ${JSON.stringify(shrunk)}`);
  await page.waitForFunction(() => !document.querySelector('[data-testid=zoom-ghost]'), null, { timeout: 2000 });
  // With motion off, a zoom moves nothing.
  await page.click('[data-testid=help-button]');
  await page.click('[data-testid=motion-toggle]');
  await page.keyboard.press('Escape');
  assert.equal((await zoomAndLook('zoom-in')).count, 0, 'with motion off, nothing travels');
});

test('the overview keeps its tiles when members join beyond the tiles made so far', async () => {
  const page = await open();
  // 180 tiles, all made by the second frame; then two members join, one tile more than made.
  const scenario = scaleOut(180, 180, 360);
  scenario.events.push({ at_ms: 1000, join: 'S181' }, { at_ms: 1000, join: 'S182' });
  await importScenario(page, scenario, 'joiners.json', 60000);
  await page.waitForSelector('.group.overview');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=member]').length === 180);
  await page.$$eval('[data-testid=member]', (tiles) => tiles.forEach((t) => { t.dataset.before = 'yes'; }));
  await seek(page, 2000);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=member]').length === 182);
  const kept = await page.$$eval('[data-testid=member][data-before=yes]', (t) => t.length);
  assert.equal(kept, 180, 'every tile is the element it was');
});

test('each tile of a large overview takes the pointer over it, in whichever run of tiles it is', async () => {
  const page = await open();
  // 180 tiles: three runs of tiles, whose boxes share rows.
  await importScenario(page, scaleOut(180, 180, 360), 'tiles.json', 60000);
  await page.waitForSelector('.group.overview');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=member]').length === 180);
  // Below the find box and the zoom bar, which stay on top as the page scrolls.
  await page.$eval('.group', (g) => window.scrollTo(0, g.getBoundingClientRect().top + scrollY - 150));
  const [seen, missed] = await page.$$eval('[data-testid=member]', (tiles) => {
    const inView = tiles.filter((t) => t.getBoundingClientRect().bottom <= innerHeight);
    const centre = (t) => { const r = t.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    return [inView.length, inView.filter((t) => document.elementFromPoint(...centre(t)) !== t).map((t) => t.dataset.memberId)];
  });
  assert.ok(seen >= 150, `most tiles in view (${seen})`);
  assert.deepEqual(missed, [], 'tiles under another element');
  // A click on the last tile of the first run selects it, not a tile of the next run.
  await page.click('[data-member-id=S64]');
  await page.waitForSelector('[data-testid=tile-actions]');
  assert.equal(await page.textContent('[data-testid=tile-actions] b'), 'S64');
});

test('playing a large group moves nothing on the page as rounds, causes and orphans come and go', async () => {
  const page = await open();
  // 18 members scale out to 24 while one crashes: learners turn ready one by one (a round
  // each, with many causes), and the crashed member's tasks wait unassigned for a round.
  await importScenario(page, scaleOut(18, 24, 240, { events: [{ at_ms: 2000, crash: 'S7' }] }));
  await page.selectOption('[data-testid=speed]', '16');
  await page.click('[data-testid=play]');
  const seen = await page.evaluate(() => new Promise((done) => {
    const out = { places: new Set(), trays: new Set(), causes: new Set(), generations: new Set() };
    const t0 = performance.now();
    const tick = () => {
      // Places within the group's panel (a notice over it comes and goes with the reader's actions).
      const stage = document.querySelector('#stage').getBoundingClientRect();
      const top = (s) => Math.round(document.querySelector(s).getBoundingClientRect().top - stage.top);
      out.places.add(`${top('[data-testid=protocol]')} ${top('.group')} ${top('[data-testid=task-timeline]')} ${Math.round(stage.height)}`);
      out.trays.add(document.querySelector('[data-testid=orphans]')?.textContent ?? 'no tray');
      out.causes.add(document.querySelector('[data-testid=protocol-causes]')?.textContent ?? '');
      out.generations.add(document.querySelector('[data-testid=generation]').textContent);
      if (performance.now() - t0 < 4000) requestAnimationFrame(tick);
      else done(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]])));
    };
    requestAnimationFrame(tick);
  }));
  assert.ok(seen.generations.length >= 2, `rounds played (${seen.generations})`);
  assert.ok(seen.trays.includes('none') && seen.trays.some((t) => /^\d+ tasks?: T/.test(t)),
    `the tray was seen empty and holding the crashed member's tasks (${seen.trays.slice(0, 3)})`);
  assert.ok(seen.causes.some((c) => c.length > 60), 'a round had more causes than fit on a line');
  assert.deepEqual(seen.places, [seen.places[0]], 'the protocol strip, the group and the timeline never moved, and the panel kept its height');
  // What does not fit on the line is there on hover.
  const cause = await page.$('[data-testid=cause]');
  assert.equal(await cause.getAttribute('title'), (await cause.textContent()).trim());
});

test('a long round is drawn in part in the log until the reader opens it', async () => {
  const page = await open();
  // 60 members forming a group: every one of them has news in the first round.
  await importScenario(page, {
    name: 'Long rounds',
    tasks: Array.from({ length: 200 }, (_, i) => ({ id: `T${i + 1}`, changelog: 1000 })),
    members: Array.from({ length: 60 }, (_, i) => ({ id: `S${i + 1}` })),
    events: [{ at_ms: 60000, join: 'S61' }],
  });
  await page.click('[data-testid=step]');
  const first = '[data-testid=log] .round[data-round="1"]';
  await page.waitForSelector(first, { state: 'attached' });
  const lines = () => page.$eval(first, (r) => r.textContent.split('\n').filter((l) => l.trim()).length);
  const [, hidden] = (await page.textContent(`${first} [data-testid=log-more]`)).match(/^show the other (\d+) lines? of this round$/);
  // The heading, the lines up to 40 or 2,000 characters (a newline each), and the button.
  const drawn = (await lines()) - 2;
  const characters = await page.$eval(first, (r) => [...r.querySelectorAll('.line')].reduce((a, l) => a + l.textContent.length, 0));
  assert.ok(drawn > 8 && drawn <= 40, `${drawn} lines drawn`);
  assert.ok(characters <= 2001, `${characters} characters drawn`);
  // Once another round is current, the first is drawn to 8 lines; opened, it is whole.
  await page.click('[data-testid=step-round]');
  await page.click('[data-testid=step]');
  await page.waitForSelector('[data-testid=log] .round.current[data-round="2"]', { state: 'attached' });
  assert.equal(await lines(), 1 + 8 + 1);
  await page.click(`${first} [data-testid=log-more]`);
  await page.waitForFunction((f) => !document.querySelector(`${f} [data-testid=log-more]`), first);
  assert.equal(await lines(), 1 + drawn + Number(hidden));
});

/**
 * Every member state the playground draws, and a scenario that shows them all at
 * STATES_AT ms, its members in zones (so zone groups are audited too). A new state is one
 * more name here and one more event in the scenario.
 */
const MEMBER_STATES = ['live', 'leaving', 'crashed', 'left', 'restarting'];
const STATES_AT = 7000;
const STATES_SCENARIO = {
  name: 'Every member state',
  config: { rebalance_ms: 500, restore_rate: 10000 },
  tasks: [
    { id: 'T1', changelog: 50000 }, { id: 'T2', changelog: 50000 }, { id: 'T3', changelog: 900000 },
    { id: 'T4', changelog: 900000 }, { id: 'T5', changelog: 50000 }, { id: 'T6', changelog: 1000 },
  ],
  members: [
    { id: 'S1', zone: 'a' }, { id: 'S2', zone: 'b' }, { id: 'S3', zone: 'a' }, { id: 'S4', zone: 'b' }, { id: 'S5', zone: 'a' },
  ],
  initial: { S1: ['T1', 'T2'], S2: ['T3', 'T4'], S3: ['T5'], S4: ['T6'] },
  events: [
    { at_ms: 0, drain: 'S4' }, // left by STATES_AT
    { at_ms: 5000, drain: 'S2' }, // still leaving: its stores are large
    { at_ms: 6000, crash: 'S3' }, // crashed, not yet timed out
    { at_ms: 6500, restart: 'S5', down_ms: 5000, keep_state: false }, // restarting, with a countdown
  ],
};

test('no serious or critical accessibility violations in any member state, theme or view (axe-core)', async () => {
  const require = createRequire(import.meta.url);
  const axe = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // The page's Content-Security-Policy would refuse the injected audit script.
  const page = await open('', { bypassCSP: true });
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
  await importScenario(page, STATES_SCENARIO, 'states.json');
  await seekFar(page, STATES_AT);
  const shown = await page.$$eval('[data-testid=member]', (m) => m.map((x) => x.dataset.state));
  for (const s of MEMBER_STATES) assert.ok(shown.includes(s), `a member is ${s}: ${shown}`);
  for (const theme of ['light', 'dark']) {
    if ((await page.getAttribute('html', 'data-theme')) !== theme) await page.click('[data-testid=theme]');
    assert.equal(await page.getAttribute('html', 'data-theme'), theme);
    await audit(`main view, ${theme}`);
    await page.keyboard.press('-');
    await page.waitForSelector('.group.overview');
    await audit(`overview, ${theme}`);
    await page.keyboard.press('+');
    await page.waitForSelector('.group.placed:not(.overview)');
    await page.click('[data-testid=view-toggle]');
    await page.waitForSelector('[data-testid=compare]');
    const lanes = await page.$$eval('[data-testid=lane][data-strategy=learner] [data-testid=member]', (m) => m.map((x) => x.dataset.state));
    for (const s of MEMBER_STATES) assert.ok(lanes.includes(s), `compare: a member is ${s}: ${lanes}`);
    await audit(`compare view, ${theme}`);
    await page.click('[data-testid=view-toggle]');
    await page.waitForSelector('[data-testid=compare]', { state: 'detached' });
  }
  await page.selectOption('[data-testid=tour-select]', 'leader-transfer');
  await page.waitForSelector('[data-testid=tour]');
  await audit('tour step');
  await page.click('[data-testid=help-button]');
  await page.waitForSelector('[data-testid=help]');
  await audit('help');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=help]', { state: 'detached' });
  // A large group's cards, its tasks as marks, one member's marks in the keyboard's hands.
  await importScenario(page, scaleOut(18, 20, 200), 'large.json');
  await zoomIn(page);
  await page.focus('[data-member-id=S2] [data-testid=mini]');
  await page.keyboard.press('ArrowRight');
  await audit('a large group as marks, the keyboard on one');
});

test('the back button is named by what it shows (WCAG 2.5.3)', async () => {
  const page = await open();
  const [label, text] = await page.$eval('[data-testid=back]', (b) => [b.getAttribute('aria-label'), b.textContent]);
  const visible = text.replace(/[^a-z ]/gi, '').trim();
  assert.ok(label.toLowerCase().includes(visible.toLowerCase()), `"${label}" contains "${visible}"`);
});

test('the docs page embeds working playgrounds', async () => {
  const page = await site.page();
  await page.goto(site.url + 'docs.html');
  const frames = await page.$$('iframe');
  assert.ok(frames.length >= 4, `${frames.length} embedded playgrounds`);
  // The embeds load lazily: bring the first into view, as a reader scrolling down would.
  await frames[0].scrollIntoViewIfNeeded();
  const first = await frames[0].contentFrame();
  await first.waitForSelector('[data-testid=member]');
  assert.ok(await first.$eval('.app', (a) => a.classList.contains('embed')));
});

test('opened with ?timing=1 the page measures its own work for each action; without, it records nothing', async () => {
  const measures = (page) =>
    page.evaluate(() => performance.getEntriesByType('measure').filter((m) => m.name.startsWith('handoff:')).map((m) => m.name));
  const timed = await open('?timing=1&preset=scale-up-running');
  await timed.evaluate(() => performance.clearMeasures());
  await timed.click('[data-testid=step]');
  await timed.waitForFunction(() => performance.getEntriesByType('measure').some((m) => m.name === 'handoff:render'));
  const names = await measures(timed);
  for (const name of ['handoff:act', 'handoff:view', 'handoff:render']) assert.ok(names.includes(name), `${name} in ${names}`);
  const plain = await open('?preset=scale-up-running');
  await plain.click('[data-testid=step]');
  await plain.click('[data-testid=step]');
  assert.deepEqual(await measures(plain), [], 'nothing piles up in an ordinary session');
});
