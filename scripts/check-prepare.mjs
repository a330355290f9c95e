// Raw `.prepare(` in app/ is refused (decision 070): oxlint's no-restricted-properties reports it in every
// file, except the files listed in scripts/prepare-allowed.json, where this script counts the calls that
// have no inline disable and fails if a count grows. A count that went down must be lowered in the file
// (`node scripts/check-prepare.mjs --prune` lowers it and the override's file list), so it can never grow back. A raw call that must stay (a
// guarded batch chain) carries `// oxlint-disable-next-line no-restricted-properties -- guards: …`.
// Every raw call counts too, explained or not: their total may not pass the ceiling in scripts/prepare-ceiling.json
// (decision 231), which --prune lowers when calls go, so the raw SQL in app/ only shrinks.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const allowedPath = join(root, "scripts/prepare-allowed.json");
const ceilingPath = join(root, "scripts/prepare-ceiling.json");
const oxlintrcPath = join(root, ".oxlintrc.json");
/** .oxlintrc.json with its whole-line `//` comments (oxlint reads it as JSONC). */
const readOxlintrc = () => JSON.parse(readFileSync(oxlintrcPath, "utf8").replace(/^\s*\/\/.*$/gm, ""));
const RULE = "no-restricted-properties";

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(ts|tsx|js|jsx|mjs)$/.test(e.name) && !e.name.endsWith(".generated.ts") ? [p] : [];
  });
}

/** Raw calls without an inline disable, all raw calls, and disables that give no reason. */
function scan(text) {
  const lines = text.split("\n");
  let raw = 0;
  let all = 0;
  const unexplained = [];
  lines.forEach((line, i) => {
    const directive = line.match(/oxlint-disable(?:-next-line|-line)?\s+([^\n]*)/);
    if (directive && directive[1].includes(RULE) && !/--\s*\S/.test(directive[1])) unexplained.push(i + 1);
    // A comment that names the call is no call.
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    const calls = line.match(/\.prepare\(/g)?.length ?? 0;
    if (!calls) return;
    all += calls;
    // oxlint reports the call at `.prepare`, so the disable stands directly above that line (where the formatter
    // breaks `d1.prepare(` after the receiver, between `d1` and `.prepare(`; oxfmt keeps it there).
    const disabled =
      (i > 0 && lines[i - 1].includes(`oxlint-disable-next-line ${RULE}`)) ||
      line.includes(`oxlint-disable-line ${RULE}`);
    if (!disabled) raw += calls;
  });
  return { raw, all, unexplained };
}

const allowed = JSON.parse(readFileSync(allowedPath, "utf8"));
const counts = {};
const problems = [];
let total = 0;
let outside = 0;
for (const file of files(join(root, "app"))) {
  const rel = relative(root, file).split("\\").join("/");
  const { raw, all, unexplained } = scan(readFileSync(file, "utf8"));
  for (const line of unexplained) problems.push(`${rel}:${line}: a disable of ${RULE} says why ("-- guards: …")`);
  if (raw) counts[rel] = raw;
  total += all;
  // The chat's and the dev console's SQL are raw by design (the objects' own SQLite, a SQL console).
  if (!/^app\/(chat\/|models\/chat\.server\.ts$|routes\/dev\/)/.test(rel)) outside += all;
}

const prune = process.argv.includes("--prune");
const next = {};
for (const [rel, n] of Object.entries(counts)) {
  const max = allowed[rel] ?? 0;
  if (n > max) {
    problems.push(`${rel}: ${n} raw .prepare( calls, ${max} allowed; use drizzle's builder (decision 070)`);
    // --prune only lowers: a file over its allowance keeps it (dropping it would exempt nothing and hide the count).
    if (max > 0) next[rel] = max;
  } else next[rel] = n;
}
for (const [rel, max] of Object.entries(allowed)) {
  const n = counts[rel] ?? 0;
  if (n < max && !prune) problems.push(`${rel}: ${n} raw .prepare( calls, ${max} allowed: lower the count (--prune)`);
}

const ceiling = JSON.parse(readFileSync(ceilingPath, "utf8")).ceiling;
if (total > ceiling) {
  problems.push(
    `app/: ${total} raw .prepare( calls, the ceiling is ${ceiling} (scripts/prepare-ceiling.json); use drizzle's builder (decision 070)`,
  );
} else if (total < ceiling) {
  if (prune) writeFileSync(ceilingPath, `${JSON.stringify({ ceiling: total }, null, 2)}\n`);
  else problems.push(`app/: ${total} raw .prepare( calls, the ceiling is ${ceiling}: lower it (--prune)`);
}

// The files oxlint exempts must be exactly the files that still have an allowance.
const oxlintrc = readOxlintrc();
const exempt = (oxlintrc.overrides ?? []).find((o) => o.rules?.[RULE] === "off")?.files ?? [];
const listed = Object.keys(prune ? next : allowed).sort();
if (prune) {
  // --prune lowers the counts and lists the same files in the override.
  // Edited in place, so that the file's comments stay.
  const text = readFileSync(oxlintrcPath, "utf8");
  const override = new RegExp(`("files": )\\[[^\\]]*\\](,\\s*"rules": \\{\\s*"${RULE}": "off")`);
  if (listed.length) writeFileSync(oxlintrcPath, text.replace(override, `$1${JSON.stringify(listed)}$2`));
  else
    problems.push(`.oxlintrc.json: no file is allowed raw calls any more: remove the override that turns ${RULE} off`);
} else if (JSON.stringify([...exempt].sort()) !== JSON.stringify(listed)) {
  problems.push(
    `.oxlintrc.json: the override that turns ${RULE} off must list exactly: ${listed.join(", ") || "(none: remove it)"}`,
  );
}

if (prune) {
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(allowedPath, `${JSON.stringify(sorted, null, 2)}\n`);
}
if (problems.length) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
const unexplainedTotal = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(
  `prepare check: ${total} raw .prepare( calls in app/ (ceiling ${ceiling}), ${outside} outside the chat's and the dev console's SQL; ` +
    `${unexplainedTotal} without a reason in ${Object.keys(counts).length} files, none new`,
);
