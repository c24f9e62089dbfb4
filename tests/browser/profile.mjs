// Where the time goes: a CPU profile of the playground (Chrome DevTools protocol) while it
// plays or scrubs a large group, summed by function (self time and total time).
// Build with names kept first (see scripts/profile-build.sh), then:
//   DIST=target/dist-profile node tests/browser/profile.mjs [heavy|50x500|compare|scrub|300x3000|1000x10000|churn1000|churnscrub]
// (the page's main thread only: the simulation runs in a worker).
import { serve, launch, openPage, importScenario, scaleOut, HEAVY, LARGE, HUGE, CHURN_1000 } from './harness.mjs';

const DIST = process.env.DIST || 'target/dist-profile';
const WHAT = process.argv[2] || 'heavy';

const server = await serve(DIST);
const browser = await launch();
const page = await openPage(browser, server.origin);
await page.goto(server.url);
await page.waitForSelector('[data-testid=member]');
const scenario =
  WHAT === 'churn1000' || WHAT === 'churnscrub'
    ? CHURN_1000
    : WHAT === '1000x10000'
    ? HUGE
    : WHAT === '300x3000'
    ? LARGE
    : WHAT === 'compare'
      ? scaleOut(16, 20, 200)
      : WHAT === '50x500'
        ? scaleOut(45, 50, 500, { changelog: 4 })
        : HEAVY;
await importScenario(page, scenario, 'p.json', 120000);
if (WHAT === 'compare') {
  await page.click('[data-testid=view-toggle]');
  await page.waitForSelector('[data-testid=compare]');
}
const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
if (WHAT === 'scrub' || WHAT === 'churnscrub') {
  await page.selectOption('[data-testid=speed]', '16');
  await page.click('[data-testid=play]');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'false', null, { timeout: 300000 });
  await cdp.send('Profiler.start');
  const max = Number(await page.getAttribute('.scrub', 'data-frontier'));
  for (let i = 1; i <= 30; i++) {
    const v = Math.floor((max * ((i * 7) % 30)) / 30);
    await page.$eval('[data-testid=scrubber]', (input, value) => {
      input.value = String(value);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, v);
    await page.waitForFunction((v) => document.querySelector('[data-testid=clock]').textContent === String(v), v);
  }
} else {
  await page.selectOption('[data-testid=speed]', ['heavy', '300x3000', '1000x10000', 'churn1000'].includes(WHAT) ? '16' : '2');
  await cdp.send('Profiler.start');
  await page.click('[data-testid=play]');
  await page.waitForTimeout(5000);
}
const { profile } = await cdp.send('Profiler.stop');
await browser.close();
server.close();

// Self time per node, then summed by function name; total time through the parent links.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  self.set(id, (self.get(id) || 0) + (deltas[i] || 0) / 1000);
}
const selfBy = new Map();
const totalBy = new Map();
let all = 0;
for (const [id, ms] of self) {
  all += ms;
  const name = (n) => n.callFrame.functionName || `(${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber})`;
  const node = byId.get(id);
  selfBy.set(name(node), (selfBy.get(name(node)) || 0) + ms);
  const seen = new Set();
  for (let p = id; p !== undefined; p = parent.get(p)) {
    const n = name(byId.get(p));
    if (!seen.has(n)) totalBy.set(n, (totalBy.get(n) || 0) + ms);
    seen.add(n);
  }
}
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, ms]) => `${ms.toFixed(0).padStart(7)} ms  ${(100 * ms / all).toFixed(1).padStart(5)}%  ${n.slice(0, 140)}`);
console.log(`${WHAT}: ${all.toFixed(0)} ms sampled`);
console.log('--- self time');
console.log(top(selfBy, 40).join('\n'));
console.log('--- total time');
console.log(top(totalBy, 60).join('\n'));
