/**
 * Makes an operator account (decision 167), the only way one exists in production:
 *   npm run operator:create -- --email ops@example.com --role admin [--name "Ada Ops"] [--remote [--env production]]
 * Local (default): the local D1 that `wrangler dev` uses. --remote: the deployed D1 through
 * `wrangler d1 execute --remote`; then PASSWORD_PEPPER must be set in the environment to the
 * Worker's secret (the hash is made here). Prints a one-time password and the TOTP enrolment URI
 * (otpauth://) to scan into an authenticator app; production refuses a login without the code.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { createTOTPKeyURI } from "@oslojs/otp";
import { hashPassword, randomId } from "../app/lib/password.ts";
import { OPERATOR_ROLES } from "../db/schema.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    remote: { type: "boolean", default: false },
    env: { type: "string" },
    "no-totp": { type: "boolean", default: false },
  },
});
const fail = (message: string): never => {
  console.error(`operator:create: ${message}`);
  process.exit(1);
};
const email = (values.email ?? "").trim().toLowerCase();
if (!/^[^\s@'"]+@[^\s@'"]+\.[a-z]{2,}$/.test(email)) fail("--email must be an e-mail address");
const role = values.role ?? "";
if (!(OPERATOR_ROLES as readonly string[]).includes(role)) fail(`--role must be one of ${OPERATOR_ROLES.join(", ")}`);
const name = (values.name ?? email.split("@")[0]!).trim();
if (!/^[\p{L}\p{M} .-]{1,80}$/u.test(name)) fail("--name: letters, spaces, dots and hyphens only");
// Only for local development: production refuses every login without the code.
if (values["no-totp"] && (values.remote || values.env)) fail("--no-totp is for the local database only");

const password = randomBytes(18).toString("base64url");
const key = new Uint8Array(randomBytes(20));
const totpSecret = values["no-totp"] ? null : Buffer.from(key).toString("base64");
// The one-time password opens only the console's setup page until the operator chose their own (decision 216).
const row = { id: randomId(), email, name, role, totpSecret, mustChangePassword: true };

if (values.remote) {
  const pepper = process.env.PASSWORD_PEPPER ?? fail("set PASSWORD_PEPPER to the Worker's secret for --remote");
  const hash = await hashPassword(password, pepper);
  const q = (v: string | null) => (v === null ? "NULL" : `'${v.replace(/'/g, "''")}'`);
  const sql = `INSERT INTO operators (id, email, name, role, password_hash, totp_secret, must_change_password) VALUES (${[row.id, email, name, role, hash, totpSecret].map(q).join(", ")}, 1);`;
  const args = [
    "wrangler",
    "d1",
    "execute",
    "DB",
    "--remote",
    "--command",
    sql,
    ...(values.env ? ["--env", values.env] : []),
  ];
  try {
    execFileSync("npx", args, { stdio: ["ignore", "ignore", "inherit"] });
  } catch {
    fail("wrangler d1 execute failed (is the e-mail address taken?)");
  }
} else {
  const { getPlatformProxy } = await import("wrangler");
  const { drizzle } = await import("drizzle-orm/d1");
  const schema = await import("../db/schema.ts");
  const proxy = await getPlatformProxy<{ DB: D1Database; PASSWORD_PEPPER: string }>({ persist: true });
  try {
    const hash = await hashPassword(password, proxy.env.PASSWORD_PEPPER);
    await drizzle(proxy.env.DB, { schema })
      .insert(schema.operators)
      .values({ ...row, role: role as (typeof OPERATOR_ROLES)[number], passwordHash: hash });
  } catch (error) {
    // The driver's message repeats the bound values (the hash): say only what went wrong.
    fail(
      /UNIQUE/.test(String((error as Error).cause ?? (error as Error).message))
        ? `${email} already has an operator account`
        : "could not write to the local database",
    );
  } finally {
    await proxy.dispose();
  }
}

console.log(
  `Operator ${email} (${role}) created${values.remote ? " in the remote database" : " in the local database"}.`,
);
console.log(`One-time password (shown once): ${password}`);
if (totpSecret) {
  console.log("Scan this TOTP enrolment URI into an authenticator app (or turn it into a QR code):");
  console.log(createTOTPKeyURI("Dating console", email, key, 30, 6));
}
