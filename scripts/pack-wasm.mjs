// Ships the playground's wasm gzipped, for hosts that serve files as they are (trunk serve,
// `python3 -m http.server`, many static hosts): dist/ gets `<name>_bg.wasm.gz` beside the
// plain wasm, and the page's loader fetches the gzipped file and unpacks it with the
// browser's DecompressionStream while it compiles. A browser without DecompressionStream, or a
// failed fetch, loads the plain wasm. A host that itself marks `.gz` files as gzip-encoded
// hands over unpacked bytes, which the loader recognises by the gzip magic number missing.
// No integrity hash on that fetch: with one, the browser holds the body back until all of it
// has come and been checked, and the wasm could not compile while it downloads.
// The gzip is made by Zopfli, which searches harder than zlib for the same format: the file
// is about 5 % smaller than zlib's best and any gzip reader unpacks it (a few seconds, once
// per build).
// Usage: node scripts/pack-wasm.mjs [dist]
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { gzipAsync } from '@gfx/zopfli';

const dist = process.argv[2] || 'dist';
const wasm = readdirSync(dist).find((f) => f.endsWith('_bg.wasm'));
if (!wasm) {
  console.error(`pack-wasm: ${dist} has no *_bg.wasm`);
  process.exit(1);
}
// Resolves to a Response with the wasm, unpacked, typed for streaming compilation.
const loader = `function unpacked(packed, plain) {
  const typed = (body) => new Response(body, { headers: { 'content-type': 'application/wasm' } });
  if (typeof DecompressionStream !== 'function') return fetch(plain);
  return fetch(packed).then(async (response) => {
    if (!response.ok) return fetch(plain);
    const reader = response.body.getReader();
    const first = await reader.read();
    const gzip = !first.done && first.value[0] === 0x1f && first.value[1] === 0x8b;
    // The bytes a piece at a time, each in a task of its own: the browser unpacks and
    // compiles what it is handed in the task that hands it, and a whole fast download at
    // once held the page over 50 ms.
    const nextTask = () => new Promise((go) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => go();
      channel.port2.postMessage(0);
    });
    let left = first.done ? new Uint8Array(0) : first.value;
    const body = new ReadableStream({
      async pull(queue) {
        if (left.length === 0) {
          const next = await reader.read();
          if (next.done) return queue.close();
          left = next.value;
        }
        queue.enqueue(left.subarray(0, 32768));
        left = left.subarray(32768);
        await nextTask();
      },
    });
    return typed(gzip ? body.pipeThrough(new DecompressionStream('gzip')) : body);
  }).catch(() => fetch(plain));
}
`;

const file = join(dist, 'index.html');
const html = readFileSync(file, 'utf8');
const call = `init({ module_or_path: './${wasm}' })`;
const preload = new RegExp(`<link rel="preload" href="\\./${wasm.replace(/\./g, '\\.')}"[^>]*>`);
if (!html.includes(call) || !preload.test(html)) {
  console.error(`pack-wasm: ${file} does not load ./${wasm} as Trunk writes it`);
  process.exit(1);
}
const plain = readFileSync(join(dist, wasm));
const packed = await gzipAsync(plain, { numiterations: 15 });
if (!gunzipSync(packed).equals(plain)) {
  console.error(`pack-wasm: the gzip of ${wasm} does not unpack to it`);
  process.exit(1);
}
writeFileSync(join(dist, `${wasm}.gz`), packed);
const out = html
  .replace(/(<script type="module">\n)/, `$1${loader}`)
  .replace(call, `init({ module_or_path: unpacked('./${wasm}.gz', './${wasm}') })`)
  .replace(preload, `<link rel="preload" href="./${wasm}.gz" crossorigin="anonymous" as="fetch">`);
writeFileSync(file, out);
console.log(`pack-wasm: ${wasm}.gz, ${packed.length} bytes (${plain.length} unpacked)`);
