import path from "node:path";
import { defineConfig } from "vitest/config";

// Pure rules, in Node.
export default defineConfig({
  resolve: { alias: { "~": path.join(import.meta.dirname, "app") } },
  test: { include: ["tests/unit/**/*.test.ts"], environment: "node" },
});
