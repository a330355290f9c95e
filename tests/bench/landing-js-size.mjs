// Usage: node tests/bench/landing-js-size.mjs http://127.0.0.1:8787  (a running `wrangler dev` on a fresh build)
// Sums the gzip size of the JS a first-time visitor of "/" downloads (modulepreload + entry scripts).
import { gzipSync } from "node:zlib";
const base = process.argv[2];
const html = await (await fetch(base + "/", { headers: { Cookie: "entry_ok=1" } })).text();
const urls = new Set([...html.matchAll(/(?:href|src)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]));
for (const m of html.matchAll(/import\("(\/build\/[^"]+\.js)"\)/g)) urls.add(m[1]);
let total = 0;
for (const u of urls) {
  const buf = Buffer.from(await (await fetch(base + u)).arrayBuffer());
  const gz = gzipSync(buf).length;
  total += gz;
  console.log(u, (gz / 1024).toFixed(1), "KB gz");
}
console.log("total", (total / 1024).toFixed(1), "KB gz");
