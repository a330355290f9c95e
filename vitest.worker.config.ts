import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// Worker tests run inside workerd with the real D1, R2 and Durable Object bindings of wrangler.toml.
// They exercise the built Worker (run `remix build` first; `npm run test:worker` does).
const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { TEST_MIGRATIONS: migrations, ENVIRONMENT: "test", ADMIN_TOKEN: "test-admin-token-0123456789abcdef0123456789" } },
    }),
  ],
  resolve: { alias: { "~": path.join(import.meta.dirname, "app") } },
  test: {
    include: ["tests/worker/**/*.test.ts"],
    setupFiles: ["./tests/worker/setup.ts"],
    testTimeout: 20_000,
    // CommonJS packages must be pre-bundled to load in workerd.
    deps: {
      optimizer: {
        ssr: {
          enabled: true,
          include: ["@remix-run/cloudflare", "@remix-run/server-runtime", "cookie", "set-cookie-parser", "drizzle-orm", "remix-auth", "remix-auth-form"],
        },
      },
    },
  },
});
