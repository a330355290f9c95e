// Development secrets, never committed or deployed as [vars] (decisions 124 and 170): .dev.vars
// (git-ignored, read by `wrangler dev` and the seed's getPlatformProxy) gets the well-known development
// values of the signing secrets and a random ADMIN_TOKEN; existing lines are kept. Staging and
// production refuse these very values (app/lib/config.server.ts DEV_SECRETS).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, appendFileSync } from "node:fs";

const DEV = {
  SESSION_SECRET: "dev-session-secret-not-for-production",
  PASSWORD_PEPPER: "dev-pepper-not-for-production",
  MAIL_WEBHOOK_SECRET: "dev-mail-webhook-secret-not-for-production",
  ADMIN_TOKEN: () => randomBytes(32).toString("hex"),
};

const file = new URL("../.dev.vars", import.meta.url);
let current = existsSync(file) ? readFileSync(file, "utf8") : "";
const added = [];
for (const [name, value] of Object.entries(DEV)) {
  if (new RegExp(`^${name}=`, "m").test(current)) continue;
  const sep = current && !current.endsWith("\n") ? "\n" : "";
  const line = `${sep}${name}=${typeof value === "function" ? value() : value}\n`;
  appendFileSync(file, line);
  current += line;
  added.push(name);
}
if (added.length) console.log(`dev-vars: wrote development ${added.join(", ")} to .dev.vars`);
