import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Worker tests run inside workerd with the real D1, R2 and Durable Object bindings of wrangler.toml.
// They exercise the built Worker (run `remix build` first; `npm run test:worker` does).
// Production's refusals have their own project: vitest.production.config.ts.
export const TEST_SECRETS = {
  ENVIRONMENT: "test",
  SESSION_SECRET: "dev-session-secret-not-for-production",
  PASSWORD_PEPPER: "dev-pepper-not-for-production",
  MAIL_WEBHOOK_SECRET: "dev-mail-webhook-secret-not-for-production",
  ADMIN_TOKEN: "test-admin-token-0123456789abcdef0123456789",
};
/**
 * CommonJS packages must be pre-bundled to load in workerd (shared with the production project). drizzle's
 * subpaths too: unbundled, each of their hundred-odd files was a module request of its own in every
 * runtime the tests start (vitest's "setup" 96 s over the suite, 46 s bundled, with a runtime per file).
 */
export const WORKER_DEPS = {
  optimizer: {
    ssr: {
      enabled: true,
      include: [
        "@remix-run/cloudflare",
        "@remix-run/server-runtime",
        "cookie",
        "set-cookie-parser",
        "drizzle-orm",
        "drizzle-orm/d1",
        "drizzle-orm/sqlite-core",
        "drizzle-orm/batch",
        "remix-auth",
        "remix-auth-form",
      ],
    },
  },
};
/**
 * The images Worker (decision 171), built by `npm run build` into build/images, as the auxiliary
 * Worker the IMAGES service binding reaches (its name per environment, as in wrangler.toml).
 */
export const imagesWorker = (name: string) => {
  const dir = path.join(import.meta.dirname, "build/images");
  const wasm = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".wasm")) : [];
  return {
    name,
    compatibilityDate: "2025-10-01",
    compatibilityFlags: ["nodejs_compat"],
    modulesRoot: dir,
    modules: [
      { type: "ESModule" as const, path: path.join(dir, "index.js") },
      ...wasm.map((f) => ({ type: "CompiledWasm" as const, path: path.join(dir, f) })),
    ],
  };
};
/**
 * The built Worker (4 MB) is loaded by workerd itself, as in production, rather than through Vite's
 * transform and the runner's module requests: every runtime the tests start loads it again (the production
 * project one per file), and through Vite that was most of a file's set-up time (decision 220). The split
 * build's chunks too (decision 237): through Vite, brand-copy.test.ts took three times as long and timed out.
 */
export const BUILD_NATIVE = [{ type: "ESModule" as const, include: ["**/build/index.js", "**/build/chunks/*.js"] }];
/**
 * wrangler.toml for the test pool: the same file without the module rules that upload the split server
 * build's chunks as modules of their own (decision 237). The pool loads a module a rule matches under a
 * name of its own (`?mf_vitest_force=`), so a chunk the build imports, then another chunk imports again,
 * ran twice (two Reacts: every page failed); without the rules it loads each chunk once, as an ordinary
 * import. Written beside wrangler.toml (git ignores it) so that the file's relative paths still hold.
 */
export function poolWranglerConfig(): string {
  const source = readFileSync(path.join(import.meta.dirname, "wrangler.toml"), "utf8");
  const rules = /^base_dir = .*\nfind_additional_modules = .*\nrules = \[\n(?: .*\n)*\]\n/m;
  if (!rules.test(source)) throw new Error("wrangler.toml's module rules changed shape: update poolWranglerConfig");
  const target = path.join(import.meta.dirname, ".wrangler-pool.toml");
  writeFileSync(target, source.replace(rules, ""));
  return target;
}
const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: poolWranglerConfig() },
      // Production's entry with ChatRoom's test hooks in a subclass (decision 230); the deployed
      // bundle (and the production project below) never has them.
      main: "./tests/worker/worker-main.ts",
      // The development secrets are not [vars] (decision 170): the tests bring their own.
      miniflare: {
        bindings: { TEST_MIGRATIONS: migrations, ...TEST_SECRETS },
        workers: [imagesWorker("dating-images")],
        modulesRules: BUILD_NATIVE,
      },
    }),
  ],
  resolve: { alias: { "~": path.join(import.meta.dirname, "app") } },
  test: {
    include: ["tests/worker/**/*.test.ts"],
    exclude: ["tests/worker/production/**"],
    setupFiles: ["./tests/worker/setup.ts", "./tests/worker/setup-shared-runtime.ts"],
    // The files of a pool worker share one runtime (decision 244): a runtime per file spent about a second
    // starting and loading the build (the suite 224 s, shared 109-121 s). Each file still starts with an
    // empty D1 (setup.ts), a client address and Mollie accounts of its own (setup-shared-runtime.ts), and
    // no stubbed global or spy of the file before. lazy-routes needs a fresh Worker: production project.
    isolate: false,
    unstubGlobals: true,
    restoreMocks: true,
    // Generous: on a busy 2-core machine a test that hashes passwords 20 times is several times slower;
    // a hang still fails within a minute. Speed belongs in `npm run bench`, not here.
    testTimeout: 60_000,
    // Every core (Vitest's default leaves one for itself: on two cores one file at a time; decision 220).
    maxWorkers: Math.max(2, availableParallelism()),
    deps: WORKER_DEPS,
  },
});
