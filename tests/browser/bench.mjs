// Browser benchmark of the built site (run scripts/build-site.sh first):
//   node tests/browser/bench.mjs            one run
//   BENCH_RUNS=3 node tests/browser/bench.mjs   three runs, medians reported
// It reports what issue 11 budgets, on the release build in headless Chromium:
// - the bundle size (raw and gzipped) and the time until the page is interactive;
// - playing 50 members x 500 tasks at 2x (the first benchmark, kept for comparison);
// - the heavier scenario: 50 x 500 scaling out with one standby, a drain and a crash, at
//   top speed (16x) with commands in flight;
// - the compare view, 4 strategies x 20 members x 200 tasks, at 2x;
// - 300 members x 3,000 tasks at top speed (compact rendering);
// - scrubbing to any moment (50 x 500, the heavy scenario, 300 x 3,000), from the input to the
//   paint of the frame that shows it (as Chrome's interaction-to-next-paint counts);
// - opening a 300 x 3,000 share link, to the first frame.
// Frame figures: the interval between animation frames (16.7 ms at 60 Hz is every frame on
// time; "late" is over 20 ms) and the main thread's task durations from a Chromium trace, as
// wall time and as the thread's CPU time (which other processes on the machine disturb less).
// The machine's load (`uptime`) is recorded with each run: timings on a busy machine are
// noisy. Figures go to stdout and tests/browser/artifacts/bench.json. These are measurements,
// not tests: nothing here passes or fails on a number.
import { readdirSync, readFileSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { serve, launch, openPage, scaleOut, HEAVY, LARGE } from './harness.mjs';

const DIST = process.env.DIST || 'dist';
const RUNS = Number(process.env.BENCH_RUNS || 1);
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (x) => Math.round(x * 10) / 10;

async function load(page, scenario) {
  await page.setInputFiles('[data-testid=import]', {
    name: 'bench.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.textContent.includes('Imported'), null, {
    timeout: 120000,
  });
}

/**
 * Plays for `seconds` (or until the playground pauses itself at rest) and measures the
 * interval between animation frames and the main thread's task durations from a trace.
 */
async function playFor(browser, page, seconds) {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.click('[data-testid=play]');
  const intervals = await frames(page, seconds);
  if ((await page.getAttribute('[data-testid=play]', 'aria-pressed')) === 'true') await page.click('[data-testid=play]');
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents || trace;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const runs = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === main?.pid && e.tid === main?.tid);
  const tasks = runs.map((e) => e.dur / 1000).filter((d) => d >= 0.05);
  // CPU time of the same tasks: what the page itself costs, whatever else the machine runs.
  const cpu = runs.filter((e) => e.dur >= 50 && e.tdur !== undefined).map((e) => e.tdur / 1000);
  return {
    frames: intervals.length,
    frame_interval_p50_ms: round(percentile(intervals, 50)),
    frame_interval_p95_ms: round(percentile(intervals, 95)),
    frames_late_percent: round((100 * intervals.filter((d) => d > 20).length) / Math.max(1, intervals.length)),
    main_thread_task_p50_ms: round(percentile(tasks, 50)),
    main_thread_task_p95_ms: round(percentile(tasks, 95)),
    main_thread_task_max_ms: round(Math.max(...tasks)),
    main_thread_task_cpu_p95_ms: round(percentile(cpu, 95)),
    main_thread_task_cpu_max_ms: round(Math.max(...cpu)),
  };
}

/** Frame intervals (ms) over `seconds` of playback, or until it pauses itself. */
async function frames(page, seconds) {
  return page.evaluate(
    (ms) =>
      new Promise((done) => {
        const deltas = [];
        let last = performance.now();
        const start = last;
        const play = document.querySelector('[data-testid=play]');
        const tick = (now) => {
          deltas.push(now - last);
          last = now;
          if (now - start < ms && play.getAttribute('aria-pressed') === 'true') requestAnimationFrame(tick);
          else done(deltas.slice(2));
        };
        requestAnimationFrame(tick);
      }),
    seconds * 1000,
  );
}

/** Sets the scrubber; each time is from the input until the frame showing it is painted. */
async function scrub(page, count = 20) {
  const max = Number(await page.getAttribute('[data-testid=scrubber]', 'max'));
  const frontier = Number(await page.getAttribute('.scrub', 'data-frontier'));
  const end = Math.min(max, frontier);
  const times = [];
  for (let i = 1; i <= count; i++) {
    const target = Math.floor((end * ((i * 7) % count)) / count);
    times.push(
      await page.evaluate(
        (value) =>
          new Promise((done) => {
            const input = document.querySelector('[data-testid=scrubber]');
            const clock = document.querySelector('[data-testid=clock]');
            // Done when the frame that shows the new clock has been drawn: a message posted
            // from that frame's animation callback arrives after its paint.
            const painted = () =>
              requestAnimationFrame(() => {
                const channel = new MessageChannel();
                channel.port1.onmessage = () => done(performance.now() - start);
                channel.port2.postMessage(0);
              });
            const shown = new MutationObserver(() => {
              if (clock.textContent === String(value)) {
                shown.disconnect();
                painted();
              }
            });
            shown.observe(clock, { childList: true, characterData: true, subtree: true });
            const start = performance.now();
            input.value = String(value);
            input.dispatchEvent(new Event('input', { bubbles: true }));
            if (clock.textContent === String(value)) {
              shown.disconnect();
              painted();
            }
          }),
        target,
      ),
    );
  }
  return { scrubs: times.length, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(Math.max(...times)) };
}

/** Plays at 16x until the group is at rest, so that the whole history exists. */
async function playToRest(page, timeout = 300000) {
  await page.selectOption('[data-testid=speed]', '16');
  await page.click('[data-testid=play]');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'false', null, {
    timeout,
  });
}

const wanted = (name) => !ONLY || ONLY.includes(name);

async function run(browser, server) {
  const results = {};
  if (wanted('interactive')) {
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
  }
  const page = await openPage(browser, server.origin);
  await page.goto(server.url);
  await page.waitForSelector('[data-testid=member]');

  if (wanted('50x500')) {
    await load(page, scaleOut(45, 50, 500));
    await page.selectOption('[data-testid=speed]', '2');
    results.playing_50x500 = await playFor(browser, page, 6);
    results.scrub_ms_50x500 = await scrub(page);
  }

  if (wanted('heavy')) {
    await load(page, HEAVY);
    await page.selectOption('[data-testid=speed]', '16');
    results.heavy_playing_50x500_16x = await playFor(browser, page, 6);
    await playToRest(page);
    results.heavy_scrub_ms_50x500 = await scrub(page);
  }

  if (wanted('compare')) {
    await load(page, scaleOut(16, 20, 200));
    await page.click('[data-testid=view-toggle]');
    await page.waitForSelector('[data-testid=compare]');
    await page.selectOption('[data-testid=speed]', '2');
    results.compare_playing_4x20x200 = await playFor(browser, page, 6);
    await page.click('[data-testid=view-toggle]');
    await page.waitForSelector('[data-testid=compare]', { state: 'detached' });
  }

  if (wanted('300x3000')) {
    const started = Date.now();
    await load(page, LARGE);
    results.load_ms_300x3000 = Date.now() - started;
    await page.selectOption('[data-testid=speed]', '16');
    results.playing_300x3000_16x = await playFor(browser, page, 6);
    await playToRest(page);
    results.scrub_ms_300x3000 = await scrub(page, 10);
    // A share link of the end of that history, opened in a fresh page, to the first frame.
    await page.click('[data-testid=share]');
    const link = await page.inputValue('[data-testid=share-url]');
    const opens = [];
    for (let i = 0; i < 3; i++) {
      const other = await openPage(browser, server.origin);
      await other.goto(link);
      await other.waitForSelector('[data-testid=member]', { timeout: 120000 });
      opens.push(await other.evaluate(() => performance.now()));
      results.console_problems = [...(results.console_problems || []), ...other.problems];
      await other.context().close();
    }
    results.open_link_ms_300x3000 = { link_chars: link.length, median: round(percentile(opens, 50)), max: round(Math.max(...opens)) };
  }
  results.console_problems = [...(results.console_problems || []), ...page.problems];
  await page.context().close();
  return results;
}

/** The median of each number across runs (the first run's value for anything else). */
function medians(runs) {
  const merge = (values) => {
    if (values.every((v) => typeof v === 'number')) return percentile(values, 50);
    if (values.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
      const out = {};
      for (const k of Object.keys(values[0])) out[k] = merge(values.map((v) => v[k]));
      return out;
    }
    return values.flat ? values.flat() : values[0];
  };
  return merge(runs);
}

async function main() {
  const files = readdirSync(DIST);
  const wasm = files.find((f) => f.endsWith('.wasm'));
  const js = files.find((f) => f.endsWith('.js'));
  const css = files.find((f) => f.endsWith('.css'));
  const size = (f) => statSync(join(DIST, f)).size;
  const gz = (f) => gzipSync(readFileSync(join(DIST, f)), { level: 9 }).length;
  const bundle = {
    wasm_bytes: size(wasm),
    wasm_gzip_bytes: gz(wasm),
    js_gzip_bytes: gz(js),
    css_gzip_bytes: gz(css),
    total_gzip_bytes: gz(wasm) + gz(js) + gz(css),
  };
  const server = await serve(DIST);
  const browser = await launch();
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const load_before = loadavg()[0];
      const results = await run(browser, server);
      results.load_average_1min = { before: round(load_before * 100) / 100, after: round(loadavg()[0] * 100) / 100 };
      runs.push(results);
      console.error(`run ${i + 1} of ${RUNS} done (load ${results.load_average_1min.before} -> ${results.load_average_1min.after})`);
    }
  } finally {
    await browser.close();
    server.close();
  }
  const results = { bundle, runs: RUNS, ...medians(runs), each_run: RUNS > 1 ? runs : undefined };
  mkdirSync('tests/browser/artifacts', { recursive: true });
  writeFileSync('tests/browser/artifacts/bench.json', JSON.stringify(results, null, 2));
  console.log(JSON.stringify(results, null, 2));
}

await main();
