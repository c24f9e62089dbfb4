// Adds a Content-Security-Policy to the built pages. Trunk's loader is an inline module
// script, so the policy allows exactly that script by its hash, plus the wasm it loads.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dist = process.argv[2] || 'dist';
const scripts = /<script type="module">([\s\S]*?)<\/script>/g;
for (const file of readdirSync(dist).filter((f) => f.endsWith('.html'))) {
  const path = join(dist, file);
  const html = readFileSync(path, 'utf8');
  const hashes = [...html.matchAll(scripts)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`,
  );
  const policy = [
    "default-src 'none'",
    `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
    // Inline style attributes: Yew's style= and plotters' text measuring use them.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const out = html
    .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, '')
    .replace(/(<meta charset="utf-8">)/i, `$1\n  ${meta}`);
  if (!out.includes(meta)) {
    console.error(`csp: ${path} has no <meta charset="utf-8"> to put the policy after`);
    process.exit(1);
  }
  writeFileSync(path, out);
  console.log(`csp: ${path} (${hashes.length} inline script${hashes.length === 1 ? '' : 's'} allowed)`);
}
