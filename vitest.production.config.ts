import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BUILD_NATIVE, imagesWorker, poolWranglerConfig, WORKER_DEPS } from "./vitest.worker.config";

// The Worker as [env.production] of wrangler.toml configures it (ENVIRONMENT=production, its bindings
// and vars), with well-formed secrets that are not development values: proves what production refuses
// and what it never serves (decision 170). Part of `npm run test:worker`.
const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

/** Shaped like real ones (lengths, prefixes); made up. */
export const PRODUCTION_SECRETS = {
  SESSION_SECRET: "prod-test-session-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c1e",
  PASSWORD_PEPPER: "prod-test-pepper-2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a",
  MAIL_WEBHOOK_SECRET: "prod-test-hook-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b",
  ADMIN_TOKEN: "prod-test-admin-0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e",
  VAPID_PUBLIC_KEY: "B" + "x".repeat(86),
  VAPID_PRIVATE_KEY: "y".repeat(43),
  // One Mollie account per company (decision 206): the demo's Amora Media B.V. and Herzklang GmbH.
  MOLLIE_API_KEY_AMORA: "live_" + "a".repeat(30),
  MOLLIE_API_KEY_HERZKLANG: "live_" + "h".repeat(30),
  TWILIO_ACCOUNT_SID: "AC" + "0123456789abcdef".repeat(2),
  TWILIO_AUTH_TOKEN: "f".repeat(32),
  SMS_FROM: "Amora",
  AGE_TRUSTED_LIST_URL: "https://trusted-list.example/av-tl.xml",
  AGE_TRUSTED_LIST_SIGNERS: "MII" + "C".repeat(300),
  // The Transparency Database token, required once DSA_DATABASE_URL is set (decision 218).
  DSA_DATABASE_TOKEN: "X|production-transparency-token-0123456789",
};

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: poolWranglerConfig(), environment: "production" },
      miniflare: {
        bindings: { TEST_MIGRATIONS: migrations, ...PRODUCTION_SECRETS },
        workers: [imagesWorker("dating-images-production")],
        modulesRules: BUILD_NATIVE,
      },
    }),
  ],
  resolve: { alias: { "~": path.join(import.meta.dirname, "app") } },
  test: {
    include: ["tests/worker/production/**/*.test.ts"],
    setupFiles: ["./tests/worker/setup.ts"],
    // Generous: on a busy 2-core machine a test that hashes passwords 20 times is several times slower;
    // a hang still fails within a minute. Speed belongs in `npm run bench`, not here.
    testTimeout: 60_000,
    deps: WORKER_DEPS,
  },
});
