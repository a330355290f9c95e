/**
 * `npm start`'s database step (decision 239): the migrations and the demo seed through the seed's one
 * local runtime, and a second start after a crash half-way finishes the job instead of skipping it.
 * Not pure like the other unit tests: it runs the real seed against a throw-away local state (one
 * workerd for the setup, then the script itself twice), so it takes a minute or more on a busy machine.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { getPlatformProxy } from "wrangler";
import { applyMigrations } from "../../db/seed/migrate";
import { SEED_MARK } from "../../db/seed/complete";

const root = path.join(import.meta.dirname, "../..");
const scripts = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;
const migrations = readdirSync(path.join(root, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort();
const work = mkdtempSync(path.join(tmpdir(), "start-prepare-"));
const persist = path.join(work, "v3");
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The local D1 of `persist`, as the seed opens it. */
async function withDb<T>(run: (DB: D1Database) => Promise<T>): Promise<T> {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath: path.join(root, "wrangler.toml"),
    persist: { path: persist },
  });
  try {
    return await run(proxy.env.DB);
  } finally {
    await proxy.dispose();
  }
}

/** `npm start`'s database step (its db:prepare script, but the .dev.vars writer) on `persist`. */
async function prepare() {
  const seed = scripts["db:prepare"]!.split(" && ").find((c) => c.includes("db/seed.ts"))!;
  const [cmd, ...args] = seed.split(" ");
  const { stdout } = await promisify(execFile)(cmd === "node" ? process.execPath : cmd!, args, {
    cwd: root,
    env: { ...process.env, WRANGLER_PERSIST: persist },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

describe("npm start's database step (decision 239)", () => {
  it("migrates through the seed's one runtime, not a wrangler process per migration", () => {
    expect(scripts.start).toContain("npm run db:prepare");
    expect(scripts["db:prepare"]).not.toMatch(/db:migrate|migrations apply/);
    expect(scripts["db:prepare"]).toMatch(/db\/seed\.ts --migrate --if-empty/);
  });

  it(
    "after a crash half-way (migrations half applied, one failed mid-file, seed half written) the next start repairs",
    async () => {
      // The state a crash leaves: the first migrations applied; the next one broken off inside its
      // batch (here: it fails on its second statement), so none of it stays; a seed begun, unfinished.
      const half = Math.floor(migrations.length / 2);
      const firstHalf = path.join(work, "first-half");
      mkdirSync(firstHalf);
      for (const name of migrations.slice(0, half))
        copyFileSync(path.join(root, "migrations", name), path.join(firstHalf, name));
      const broken = migrations[half]!;
      writeFileSync(
        path.join(firstHalf, broken),
        "CREATE TABLE crash_probe (id INTEGER);\n--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);",
      );
      await withDb(async (DB) => {
        await expect(applyMigrations(DB, firstHalf)).rejects.toThrow(/no_such_table/);
        const names = (await DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results;
        expect(names.map((r) => r.name)).toEqual(migrations.slice(0, half));
        // The broken migration's batch left nothing behind.
        expect(await DB.prepare("SELECT name FROM sqlite_master WHERE name = 'crash_probe'").first()).toBeNull();
        await DB.prepare("INSERT INTO interests (id, sort) VALUES ('half-seeded', 0)").run();
      });

      const first = await prepare();
      expect(first).toContain(`Migrations applied: ${migrations.length - half} `);
      await withDb(async (DB) => {
        const n = await DB.prepare("SELECT COUNT(*) AS n FROM d1_migrations").first<number>("n");
        expect(n).toBe(migrations.length);
        expect(
          await DB.prepare("SELECT 1 AS done FROM counters WHERE key = ?1").bind(SEED_MARK.key).first(),
        ).not.toBeNull();
        expect(await DB.prepare("SELECT id FROM interests WHERE id = 'half-seeded'").first()).toBeNull();
        expect(await DB.prepare("SELECT COUNT(*) AS n FROM brands").first<number>("n")).toBeGreaterThan(0);
      });

      // A finished database: the next start applies nothing and seeds nothing.
      const second = await prepare();
      expect(second).toContain("Migrations applied: 0 ");
      expect(second).toContain("Database already seeded; skipping");
    },
    // The whole demo seed runs once: minutes when the shared machine is busy (nothing here is timed).
    900_000,
  );
});
