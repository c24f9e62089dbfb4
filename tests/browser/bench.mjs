// Browser benchmark of the built site (run scripts/build-site.sh first):
//   node tests/browser/bench.mjs
// It reports the bundle size (raw and gzipped), the time until the page is interactive, the
// frame time while playing a large group (50 members x 500 tasks), the compare view's frame
// time (4 strategies x 20 members x 200 tasks), and the time a scrub takes to render.
// Figures go to stdout and tests/browser/artifacts/bench.json. These are measurements, not
// tests: nothing here passes or fails on a number.
import { readdirSync, readFileSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serve, launch, openPage } from './harness.mjs';

const DIST = process.env.DIST || 'dist';

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (x) => Math.round(x * 10) / 10;

/** A stable group of `before` members sharing `tasks` tasks, growing to `after` at 0 ms. */
function scaleOut(before, after, tasks) {
  const members = Array.from({ length: before }, (_, i) => ({ id: `S${i + 1}` }));
  const initial = {};
  for (let t = 0; t < tasks; t++) {
    const owner = `S${(t % before) + 1}`;
    (initial[owner] ||= []).push(`T${t + 1}`);
  }
  return {
    name: `Scale out ${before} to ${after} members, ${tasks} tasks`,
    config: { restore_rate: 50000, rebalance_ms: 1000 },
    tasks: Array.from({ length: tasks }, (_, i) => ({ id: `T${i + 1}`, changelog: 20000 + ((i * 7919) % 60000), write_rate: 50 })),
    members,
    initial,
    events: Array.from({ length: after - before }, (_, i) => ({ at_ms: 0, join: `S${before + i + 1}` })),
  };
}

async function load(page, scenario) {
  await page.setInputFiles('[data-testid=import]', {
    name: 'bench.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.textContent.includes('Imported'));
}

/**
 * Plays for `seconds` and measures two things: the interval between animation frames (what a
 * person sees; 16.7 ms at 60 Hz is every frame on time), and the main thread's task durations
 * from a Chromium trace (the work per frame: simulation, render, style, layout, paint).
 */
async function playFor(browser, page, seconds) {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.click('[data-testid=play]');
  const intervals = await frames(page, seconds);
  await page.click('[data-testid=play]');
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents || trace;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === main?.pid && e.tid === main?.tid)
    .map((e) => e.dur / 1000)
    .filter((d) => d >= 0.05);
  return {
    frames: intervals.length,
    frame_interval_p50_ms: round(percentile(intervals, 50)),
    frame_interval_p95_ms: round(percentile(intervals, 95)),
    frames_late_percent: round((100 * intervals.filter((d) => d > 20).length) / intervals.length),
    main_thread_task_p50_ms: round(percentile(tasks, 50)),
    main_thread_task_p95_ms: round(percentile(tasks, 95)),
    main_thread_task_max_ms: round(Math.max(...tasks)),
  };
}

/** Frame intervals (ms) over `seconds` of playback, from requestAnimationFrame. */
async function frames(page, seconds) {
  return page.evaluate(
    (ms) =>
      new Promise((done) => {
        const deltas = [];
        let last = performance.now();
        const start = last;
        const tick = (now) => {
          deltas.push(now - last);
          last = now;
          if (now - start < ms) requestAnimationFrame(tick);
          else done(deltas.slice(2));
        };
        requestAnimationFrame(tick);
      }),
    seconds * 1000,
  );
}

async function main() {
  const results = {};
  const files = readdirSync(DIST);
  const wasm = files.find((f) => f.endsWith('.wasm'));
  const js = files.find((f) => f.endsWith('.js'));
  const css = files.find((f) => f.endsWith('.css'));
  const size = (f) => statSync(join(DIST, f)).size;
  const gz = (f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length;
  results.bundle = {
    wasm_bytes: size(wasm),
    wasm_gzip_bytes: gz(wasm),
    js_gzip_bytes: gz(js),
    css_gzip_bytes: gz(css),
    total_gzip_bytes: gz(wasm) + gz(js) + gz(css),
  };

  const server = await serve(DIST);
  const browser = await launch();
  try {
    // Time until interactive: navigation start to the first member card on screen.
    const loads = [];
    for (let i = 0; i < 7; i++) {
      const page = await openPage(browser, server.origin);
      await page.goto(server.url + '?preset=scale-up-running');
      await page.waitForSelector('[data-testid=member]');
      loads.push(await page.evaluate(() => performance.now()));
      await page.context().close();
    }
    results.interactive_ms = { median: round(percentile(loads, 50)), max: round(Math.max(...loads)) };

    // Frame time while playing 50 members x 500 tasks.
    const page = await openPage(browser, server.origin);
    await page.goto(server.url);
    await page.waitForSelector('[data-testid=member]');
    await load(page, scaleOut(45, 50, 500));
    await page.selectOption('[data-testid=speed]', '2');
    results.playing_50x500 = await playFor(browser, page, 6);

    // Scrub latency: set the scrubber, wait until the clock shows it and a frame is painted.
    const max = Number(await page.getAttribute('[data-testid=scrubber]', 'max'));
    const scrubs = [];
    for (let i = 1; i <= 20; i++) {
      const target = Math.floor((max * ((i * 7) % 20)) / 20);
      scrubs.push(
        await page.evaluate(
          (value) =>
            new Promise((done) => {
              const input = document.querySelector('[data-testid=scrubber]');
              const start = performance.now();
              input.value = String(value);
              input.dispatchEvent(new Event('input', { bubbles: true }));
              const check = () => {
                if (document.querySelector('[data-testid=clock]').textContent === String(value)) {
                  requestAnimationFrame(() => done(performance.now() - start));
                } else requestAnimationFrame(check);
              };
              check();
            }),
          target,
        ),
      );
    }
    results.scrub_ms_50x500 = { scrubs: scrubs.length, p50: round(percentile(scrubs, 50)), p95: round(percentile(scrubs, 95)), max: round(Math.max(...scrubs)) };

    // The compare view: four strategies, 20 members x 200 tasks each.
    await load(page, scaleOut(16, 20, 200));
    await page.click('[data-testid=view-toggle]');
    await page.waitForSelector('[data-testid=compare]');
    await page.selectOption('[data-testid=speed]', '2');
    results.compare_playing_4x20x200 = await playFor(browser, page, 6);
    results.console_problems = page.problems;
    await page.context().close();
  } finally {
    await browser.close();
    server.close();
  }
  mkdirSync('tests/browser/artifacts', { recursive: true });
  writeFileSync('tests/browser/artifacts/bench.json', JSON.stringify(results, null, 2));
  console.log(JSON.stringify(results, null, 2));
}

await main();
