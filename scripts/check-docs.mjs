#!/usr/bin/env node
/**
 * Docs that stay true, checked by `npm run lint`:
 *
 * 1. Decisions: each docs/decisions/NNN-*.md has a `Date: YYYY-MM-DD` and a `Status: accepted` or
 *    `Status: superseded by NNN` line (NNN an existing decision), and docs/decisions/README.md lists it
 *    once with the same title, status and date and a one-line summary. `node scripts/check-docs.mjs
 *    --write` rewrites that index from the files, keeping each row's line (a new decision gets
 *    "TODO", which the check refuses until someone writes its line).
 * 2. "Not built yet": every such passage in README.md and docs/*.md names what it would add in
 *    backticks (a route such as `/admin/brands`, a file such as `app/models/x.server.ts`, a D1 table
 *    such as `age_proofs`), and none of them exists: the line cannot outlive the work it announces.
 *    Mentions inside backticks (the convention itself) are not passages.
 * 3. Nothing points outside the repository: no tracker numbers ("issue 12", "(#23)") and no paths of
 *    the machine it was written on, in app, tests, scripts, docs, db, workers and the README.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

// `--root=<dir>` checks another tree (the unit test's); the repository by default.
const rootArg = process.argv.find((a) => a.startsWith("--root="));
const root = rootArg ? rootArg.slice("--root=".length) : join(import.meta.dirname, "..");
const read = (p) => readFileSync(join(root, p), "utf8");
const problems = [];

// ─── 1. Decisions and their index ────────────────────────────────────────────────────────────

const DECISIONS = "docs/decisions";
const INDEX = `${DECISIONS}/README.md`;
const STATUS = /^Status: (accepted|superseded by (\d{3}))$/m;
const DATE = /^Date: (\d{4}-\d{2}-\d{2})$/m;

function decisions() {
  return readdirSync(join(root, DECISIONS))
    .filter((f) => /^\d{3}-.+\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = read(`${DECISIONS}/${file}`);
      const number = file.slice(0, 3);
      const heading = /^# (.+)$/m.exec(text)?.[1] ?? "";
      const title = heading.replace(/^\d{3}\s*[:–—-]?\s*/, "").trim();
      return { file, number, title, date: DATE.exec(text)?.[1], status: STATUS.exec(text)?.[1], heading };
    });
}

/** The index's rows: `| [NNN Title](file) | status | date | one line |`, padded or not. */
function indexRows(text) {
  const rows = new Map();
  for (const line of text.split("\n")) {
    const m = /^\|\s*\[(\d{3}) ([^\]]+)\]\(([^)]+)\)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*([^|]*?)\s*\|$/.exec(line);
    if (!m) continue;
    const [, number, title, file, status, date, summary] = m;
    if (rows.has(number)) problems.push(`${INDEX}: decision ${number} is listed twice`);
    rows.set(number, { title, file, status, date, summary });
  }
  return rows;
}

const INDEX_HEAD = `# Decisions

One file per lasting decision, numbered by area (0xx the base, 05x members, 06x chat, 08x hardening,
09x–11x money, 12x notifications, 13x the way in, 16x–19x operations, the console, safety and scale).
Each starts with its title, a \`Date:\` and a \`Status:\` line: \`accepted\`, or \`superseded by NNN\` when a
later decision replaced it (the old one says what holds now). Amended in part is still \`accepted\`, with
the amendment noted in the file. Measurements too long for a decision live in [../bench/](../bench/).

Adding one: write \`NNN-title.md\` with its \`Date:\` and \`Status: accepted\` lines, mark what it
replaces \`Status: superseded by NNN\`, run \`node scripts/check-docs.mjs --write\` and replace the new row's
TODO with one line. \`npm run lint\` fails while a decision is missing here, its status differs, or a
line is TODO.

| decision | status | date | in one line |
| -------- | ------ | ---- | ----------- |
`;

function checkDecisions(write) {
  const all = decisions();
  const numbers = new Set(all.map((d) => d.number));
  const indexText = existsSync(join(root, INDEX)) ? read(INDEX) : "";
  const rows = indexRows(indexText);
  for (const d of all) {
    const where = `${DECISIONS}/${d.file}`;
    if (!d.title) problems.push(`${where}: no "# NNN Title" heading`);
    if (!d.date) problems.push(`${where}: no "Date: YYYY-MM-DD" line`);
    if (!d.status) problems.push(`${where}: no "Status: accepted" or "Status: superseded by NNN" line`);
    const by = d.status?.match(/\d{3}$/)?.[0];
    if (by && (!numbers.has(by) || by === d.number))
      problems.push(`${where}: superseded by ${by}, which is not another decision`);
  }
  if (write) {
    const table = all
      .map((d) => {
        const summary = rows.get(d.number)?.summary || "TODO";
        return `| [${d.number} ${d.title}](${d.file}) | ${d.status ?? "TODO"} | ${d.date ?? "TODO"} | ${summary} |`;
      })
      .join("\n");
    writeFileSync(join(root, INDEX), `${INDEX_HEAD}${table}\n`);
    return;
  }
  for (const d of all) {
    const row = rows.get(d.number);
    if (!row) {
      problems.push(`${INDEX}: decision ${d.number} (${d.file}) is not listed (node scripts/check-docs.mjs --write)`);
      continue;
    }
    if (row.file !== d.file) problems.push(`${INDEX}: decision ${d.number} links ${row.file}, the file is ${d.file}`);
    if (row.title !== d.title) problems.push(`${INDEX}: decision ${d.number}'s title differs from its file's heading`);
    if (row.status !== d.status)
      problems.push(`${INDEX}: decision ${d.number} is "${row.status}" here, "${d.status}" in its file`);
    if (row.date !== d.date)
      problems.push(`${INDEX}: decision ${d.number} is dated ${row.date} here, ${d.date} in its file`);
    if (!row.summary || /^TODO\b/.test(row.summary)) problems.push(`${INDEX}: decision ${d.number} needs its one line`);
  }
  for (const [number, row] of rows)
    if (!numbers.has(number)) problems.push(`${INDEX}: decision ${number} is listed but ${row.file} does not exist`);
}

// ─── 2. "Not built yet" names nothing that exists ────────────────────────────────────────────

/** A URL path pattern per route module (Remix v2 flat route names, in area folders: decision 235). */
function routePatterns() {
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const dir = join(root, "app/routes");
  const modules = readdirSync(dir, { withFileTypes: true }).flatMap((area) =>
    area.isDirectory() ? readdirSync(join(dir, area.name)) : [area.name],
  );
  return modules.map((entry) => {
    const segments = entry
      .replace(/\.(tsx?|jsx?)$/, "")
      .split(/\.(?![^[]*\])/)
      .filter((s) => s !== "_index" && !s.startsWith("_"))
      .map((s) => s.replace(/_$/, "").replace(/\[(.*?)\]/g, "$1"))
      .map((s) => (s.startsWith("$") ? "[^/]+" : esc(s)));
    return new RegExp(`^/${segments.join("/")}/?$`);
  });
}

function schemaTables() {
  return new Set([...read("db/schema.ts").matchAll(/sqliteTable\(\s*"([a-z0-9_]+)"/g)].map((m) => m[1]));
}

/** What a name in a passage refers to, and whether that exists. */
function existing(name, routes, tables) {
  if (name.startsWith("/")) {
    const path = name
      .split(/[?#\s]/)[0]
      .replace(/<[^>]*>|\{[^}]*\}|:\w+|\*/g, "x")
      .replace(/\/+$/, "");
    if (!/^\/[\w\-./[\]]*$/.test(path)) return null;
    return routes.some((r) => r.test(path || "/")) ? `the route ${path}` : false;
  }
  if (
    /^(app|db|scripts|tests|workers|docs|migrations|public|locales)\/[\w\-./]+$/.test(name) ||
    /^[\w-]+\/[\w\-./]+\.\w+$/.test(name)
  ) {
    return existsSync(join(root, name)) || existsSync(join(root, "app", name)) ? `the file ${name}` : false;
  }
  if (/^[a-z][a-z0-9_]*$/.test(name)) return tables.has(name) ? `the table ${name}` : false;
  return null;
}

function docsFiles() {
  const docs = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

function checkNotBuilt() {
  const routes = routePatterns();
  const tables = schemaTables();
  const marker = /(?<!`)not built yet/gi;
  for (const file of docsFiles()) {
    const text = read(file);
    for (const m of text.matchAll(marker)) {
      const rest = text.slice(m.index);
      const end = rest.search(/\n\s*\n|\n\s*(?:[-*]|\d+\.) |\n#/);
      const passage = end === -1 ? rest : rest.slice(0, end);
      const line = text.slice(0, m.index).split("\n").length;
      const names = [
        ...[...passage.matchAll(/`([^`]+)`/g)].map((x) => x[1].trim()),
        ...[...passage.matchAll(/(?<![`\w/])((?:app|db|scripts|tests|workers)\/[\w\-./]+\.\w+)/g)].map((x) => x[1]),
      ];
      const checked = names.map((n) => existing(n, routes, tables)).filter((r) => r !== null);
      if (checked.length === 0)
        problems.push(
          `${file}:${line}: a "Not built yet" passage must name what it would add in backticks (a route, file or table)`,
        );
      for (const found of checked.filter(Boolean))
        problems.push(`${file}:${line}: "Not built yet" names ${found}, which exists: say what is built instead`);
    }
  }
}

// ─── 3. Nothing points outside the repository ───────────────────────────────────────────────

const SOURCES = ["app", "tests", "scripts", "docs", "db", "workers", "README.md"];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|css|md|sql|toml|sh|html)$/;
const OUTSIDE = [
  [/\bissues? #?\d+/i, "an issue number"],
  [/\(#\d+\)/, "an issue number"],
  [/(^|[\s(`'"])\/work\//, "a path on the machine it was written on"],
];
const self = relative(root, import.meta.filename); // this file names what it refuses

function* walk(p) {
  const full = join(root, p);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const e of readdirSync(full)) if (e !== "node_modules" && !e.startsWith(".")) yield* walk(`${p}/${e}`);
  } else if (TEXT_FILE.test(p)) yield p;
}

function checkOutside() {
  for (const file of SOURCES.flatMap((s) => [...walk(s)])) {
    if (file === self) continue;
    read(file)
      .split("\n")
      .forEach((line, i) => {
        for (const [re, what] of OUTSIDE)
          if (re.test(line))
            problems.push(`${file}:${i + 1}: ${what} points outside the repository; cite the decision or doc it means`);
      });
  }
}

const write = process.argv.includes("--write");
checkDecisions(write);
if (!write) {
  checkNotBuilt();
  checkOutside();
}
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`check-docs: ${problems.length} problem(s)`);
  process.exit(1);
}
if (!write)
  console.log('check-docs: decisions indexed, no stale "Not built yet", nothing points outside the repository');
