// Development secrets that must never be committed or deployed as [vars]: .dev.vars (git-ignored, read by
// `wrangler dev`) gets a random ADMIN_TOKEN on first start; existing lines are kept. Decision 124.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, appendFileSync } from "node:fs";

const file = new URL("../.dev.vars", import.meta.url);
const current = existsSync(file) ? readFileSync(file, "utf8") : "";
if (!/^ADMIN_TOKEN=/m.test(current)) {
  const sep = current && !current.endsWith("\n") ? "\n" : "";
  appendFileSync(file, `${sep}ADMIN_TOKEN=${randomBytes(32).toString("hex")}\n`);
  console.log("dev-vars: wrote a development ADMIN_TOKEN to .dev.vars");
}
