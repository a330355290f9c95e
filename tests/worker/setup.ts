import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll } from "vitest";
import { seedBrands } from "./fixtures";

declare module "cloudflare:test" {
  interface ProvidedEnv {
    DB: D1Database;
    TEST_MIGRATIONS: D1Migration[];
  }
}

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await seedBrands();
});
