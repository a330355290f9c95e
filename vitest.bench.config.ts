import { defineConfig } from "vitest/config";
import worker from "./vitest.worker.config";

// Figures measured inside workerd with the real D1 and Durable Objects (part of `npm run bench`). Not in
// the pass/fail suite: vitest.worker.config.ts includes only tests/worker.
export default defineConfig({ ...worker, test: { ...worker.test, include: ["tests/bench/workerd/**/*.bench.ts"] } });
