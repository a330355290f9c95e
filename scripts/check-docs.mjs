#!/usr/bin/env node
/**
 * Docs that stay true, checked by `npm run lint`:
 *
 * 1. Decisions: each docs/decisions/NNN-*.md has a `Date: YYYY-MM-DD` and a `Status: accepted` or
 *    `Status: superseded by NNN` line (NNN an existing decision), and docs/decisions/README.md lists it
 *    once with the same title, status and date and a one-line summary. `node scripts/check-docs.mjs
 *    --write` rewrites that index from the files, keeping each row's line (a new decision gets
 *    "TODO", which the check refuses until someone writes its line).
 * 2. "Not built yet": every such passage in README.md and the pages under docs/ names what it would add in
 *    backticks (a route such as `/admin/brands`, a file such as `app/models/x.server.ts`, a D1 table
 *    such as `age_proofs`), and none of them exists: the line cannot outlive the work it announces.
 *    Mentions inside backticks (the convention itself) are not passages.
 * 3. Nothing points outside the repository: no tracker numbers ("issue 12", "(#23)") and no paths of
 *    the machine it was written on, in app, tests, scripts, docs, db, workers, .ci, the README and the
 *    configuration files at the root.
 * 4. Docs a newcomer can navigate (decision 232), in the same files:
 *    a. a cited section exists: `docs/architecture/money.md §4` (also `[money.md](money.md) §4`, and
 *       lists such as `§3, §4 and §9` after one page) needs a heading `## 4. …` (or `## §4 …`) in that
 *       page; a bare `§N` in a doc page names a section of that page (in a folder's README.md, of a page
 *       of that folder). `§ 5 DDG` and `§9.3.1` (other people's numbering) are not citations;
 *    b. every `docs/….md` named in a file, and every relative markdown link in README.md and docs/, leads
 *       to a file that exists;
 *    c. README.md and every page under docs/ (but the decision records and bench notes) stay within
 *       150 lines: a longer page is split by topic.
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

/** README.md and the doc pages under docs/ (not the decision records or the bench notes). */
function docsFiles() {
  const pages = [...walk("docs")].filter((f) => f.endsWith(".md") && !/^docs\/(decisions|bench)\//.test(f));
  return ["README.md", ...pages];
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

const SOURCES = ["app", "tests", "scripts", "docs", "db", "workers", "README.md", ".ci"];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|css|md|sql|toml|sh|html)$|^\.ci\/run$/;
const OUTSIDE = [
  [/\bissues? #?\d+/i, "an issue number"],
  [/\(#\d+\)/, "an issue number"],
  [/(^|[\s(`'"])\/work\//, "a path on the machine it was written on"],
];
const self = relative(root, import.meta.filename); // this file names what it refuses
const selfTest = "tests/unit/check-docs.test.ts"; // and its test builds trees of what it refuses

/** The files checked: those of SOURCES and the configuration files at the root. */
function sourceFiles() {
  const top = readdirSync(root).filter((f) => TEXT_FILE.test(f) && statSync(join(root, f)).isFile());
  return [...new Set([...SOURCES.flatMap((s) => [...walk(s)]), ...top])];
}

function* walk(p) {
  const full = join(root, p);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const e of readdirSync(full)) if (e !== "node_modules" && !e.startsWith(".")) yield* walk(`${p}/${e}`);
  } else if (TEXT_FILE.test(p)) yield p;
}

function checkOutside() {
  for (const file of sourceFiles()) {
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

// ─── 4. Docs a newcomer can navigate ─────────────────────────────────────────────────────────

const MAX_LINES = 150;
const LIST = String.raw`((?:\s*(?:,\s*and|,|and|or|to|-|–)\s*§\d+(?!\.\d))*)`;
/** `[text](page.md) §N …`: the page relative to the file that links it. */
const LINKED = new RegExp(String.raw`\]\(([^)\s]+?\.md)(?:#[^)]*)?\)[ \t]*(?:\n[ \t]*)?§(\d+)(?!\.\d)` + LIST, "g");
/** `docs/x/page.md §N …` (a comment may wrap before the §): from the root, else from the file's folder. */
const NAMED = new RegExp(
  String.raw`(?<![\w./-]|\]\()((?:\.\.?/)*[\w-]+(?:/[\w.-]+)*\.md)[ \t]*(?:\n[ \t]*(?:\*|//|#)?[ \t]*)?§(\d+)(?!\.\d)` +
    LIST,
  "g",
);
const BARE = /§(\d+)(?![.\d]*\d)/g;

const headingCache = new Map();
/** The section numbers a page's headings carry: `## 4. Money`, `### §4 Money`. */
function sections(file) {
  if (!headingCache.has(file)) {
    const text = read(file).replace(/^```[\s\S]*?^```/gm, "");
    headingCache.set(
      file,
      new Set([...text.matchAll(/^#{1,6}[ \t]+§?[ \t]*(\d+)(?:\.(?!\d)|[ \t])/gm)].map((m) => m[1])),
    );
  }
  return headingCache.get(file);
}

const isFile = (p) => existsSync(join(root, p)) && statSync(join(root, p)).isFile();
const folder = (file) => (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "");
/** A path as written, from `base` (a folder of the repository); null when it leaves the repository. */
function resolve(base, target) {
  const parts = base ? base.split("/") : [];
  for (const seg of target.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/** Where a moved section went: the pages of the folder named like the missing file that carry §N. */
function movedTo(missing, number) {
  const dir = missing.replace(/\.md$/, "");
  if (!existsSync(join(root, dir)) || !statSync(join(root, dir)).isDirectory()) return "";
  const pages = [...walk(dir)].filter((f) => f.endsWith(".md") && sections(f).has(number));
  return pages.length ? ` (§${number} is now in ${pages.join(", ")})` : "";
}

const lineOf = (text, index) => text.slice(0, index).split("\n").length;

function checkCitations() {
  const pages = new Set(docsFiles());
  for (const file of sourceFiles()) {
    if (file === self || file === selfTest) continue;
    let text = read(file);
    const where = (index) => `${file}:${lineOf(text, index)}`;
    const missing = new Set(); // where a cited page was already reported missing
    const cite = (m, target, first, rest) => {
      const numbers = [first, ...[...(rest ?? "").matchAll(/§(\d+)/g)].map((x) => x[1])];
      if (!target) return;
      if (!isFile(target)) {
        missing.add(m.index);
        problems.push(`${where(m.index)}: cites ${target} §${first}, which does not exist${movedTo(target, first)}`);
        return;
      }
      for (const n of numbers)
        if (!sections(target).has(n))
          problems.push(`${where(m.index)}: cites ${target} §${n}, which has no heading "${n}."`);
    };
    for (const m of text.matchAll(LINKED)) cite(m, resolve(folder(file), m[1]), m[2], m[3]);
    for (const m of text.matchAll(NAMED)) {
      const [fromRoot, fromHere] = [resolve("", m[1]), resolve(folder(file), m[1])];
      cite(m, [fromRoot, fromHere].find((p) => p && isFile(p)) ?? fromRoot, m[2], m[3]);
    }
    // b. a docs/….md named anywhere exists
    for (const m of text.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md\b/g))
      if (!m[0].includes("NNN") && !missing.has(m.index) && !isFile(m[0]))
        problems.push(`${where(m.index)}: names ${m[0]}, which does not exist`);
    // a. a bare §N in a doc page is a section of that page (of its folder, for a folder's README.md)
    if (!pages.has(file)) continue;
    const blank = (s) => s.replace(/[^\n]/g, " ");
    text = text.replace(LINKED, blank).replace(NAMED, blank);
    const index = file.endsWith("/README.md");
    const own = index
      ? new Set([...walk(folder(file))].filter((f) => f.endsWith(".md")).flatMap((f) => [...sections(f)]))
      : sections(file);
    const whose = index ? "a page of this folder" : "this page";
    for (const m of text.matchAll(BARE))
      if (!own.has(m[1]))
        problems.push(
          `${where(m.index)}: §${m[1]} is not a section of ${whose}: name the page (\`[page.md](page.md) §${m[1]}\`)`,
        );
  }
}

function checkPages() {
  for (const file of docsFiles()) {
    const text = read(file);
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines > MAX_LINES)
      problems.push(`${file}: ${lines} lines, more than ${MAX_LINES}: split it into pages by topic (decision 232)`);
  }
  // b. relative links of README.md and everything under docs/
  const markdown = ["README.md", ...[...walk("docs")].filter((f) => f.endsWith(".md"))];
  for (const file of markdown) {
    const text = read(file)
      .replace(/^```[\s\S]*?^```/gm, (s) => s.replace(/[^\n]/g, " "))
      .replace(/`[^`\n]*`/g, (s) => " ".repeat(s.length));
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].replace(/^<|>$/g, "").split("#")[0];
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
      const path = resolve(folder(file), decodeURI(target));
      if (path === null || !existsSync(join(root, path)))
        problems.push(`${file}:${lineOf(text, m.index)}: links ${m[1]}, which does not exist`);
    }
  }
}

const write = process.argv.includes("--write");
checkDecisions(write);
if (!write) {
  checkNotBuilt();
  checkOutside();
  checkCitations();
  checkPages();
}
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`check-docs: ${problems.length} problem(s)`);
  process.exit(1);
}
if (!write)
  console.log(
    'check-docs: decisions indexed, no stale "Not built yet", nothing points outside the repository, every cited section and linked page exists, pages within 150 lines',
  );
