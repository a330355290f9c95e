import { applyD1Migrations, env } from "cloudflare:test";
import { beforeAll } from "vitest";
import { seedBrands } from "./fixtures";

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
  await seedBrands();
});
