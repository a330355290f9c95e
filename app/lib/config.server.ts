/**
 * Secrets a deployed Worker (staging, production) cannot run without (decision 170). Checked at an
 * isolate's first request: while one is missing, too short or a development value, every request
 * answers 503 and one log line names what is wrong — the names, never a value.
 */
import { isDeployed, isLive, type Env } from "./env";
import { logError } from "./log.server";

/** The development values (scripts/dev-vars.mjs, vitest configs): public strings, refused when deployed. */
export const DEV_SECRETS: ReadonlySet<string> = new Set([
  "dev-session-secret-not-for-production",
  "dev-pepper-not-for-production",
  "dev-mail-webhook-secret-not-for-production",
  "test-admin-token-0123456789abcdef0123456789",
]);

type Rule = { name: keyof Env & string; min: number; when?: (env: Env) => boolean; prefix?: (env: Env) => string[] };

const directDebit = (env: Env) => env.DIRECT_DEBIT === "1";

/** Minimum lengths: signing keys 32 characters; VAPID keys are base64url P-256 (87 and 43 characters). */
export const REQUIRED_SECRETS: readonly Rule[] = [
  { name: "SESSION_SECRET", min: 32 },
  { name: "PASSWORD_PEPPER", min: 32 },
  { name: "MAIL_WEBHOOK_SECRET", min: 32 },
  { name: "ADMIN_TOKEN", min: 32 },
  { name: "VAPID_PUBLIC_KEY", min: 86 },
  { name: "VAPID_PRIVATE_KEY", min: 42 },
  { name: "MAIL_API_KEY", min: 20, when: (env) => env.MAIL_TRANSPORT === "http" },
  { name: "TWILIO_ACCOUNT_SID", min: 34, when: directDebit, prefix: () => ["AC"] },
  { name: "TWILIO_AUTH_TOKEN", min: 32, when: directDebit },
  { name: "SMS_FROM", min: 3, when: directDebit },
  // The age check's trusted list (decision 198): without it every proof of age is refused. The URL is
  // the Commission's list; the signers are its pinned certificates, base64 DER ("MII…"), comma-separated.
  { name: "AGE_TRUSTED_LIST_URL", min: 12, prefix: () => ["https://"] },
  { name: "AGE_TRUSTED_LIST_SIGNERS", min: 200, prefix: () => ["MII"] },
  // The DSA Transparency Database (decision 218): its API token once its address is set.
  { name: "DSA_DATABASE_TOKEN", min: 20, when: (env) => !!env.DSA_DATABASE_URL },
];

export interface ConfigProblem {
  name: string;
  problem: "missing" | "too short" | "development value" | "wrong kind";
}

/** What is wrong with a deployed Worker's secrets; empty when it may serve (and always outside staging/production). */
export function configProblems(env: Env): ConfigProblem[] {
  if (!isDeployed(env)) return [];
  const problems: ConfigProblem[] = [];
  for (const rule of REQUIRED_SECRETS) {
    if (rule.when && !rule.when(env)) continue;
    const value = env[rule.name];
    if (typeof value !== "string" || value.trim() === "") problems.push({ name: rule.name, problem: "missing" });
    else if (DEV_SECRETS.has(value) || /not-for-production/i.test(value))
      problems.push({ name: rule.name, problem: "development value" });
    else if (value.length < rule.min) problems.push({ name: rule.name, problem: "too short" });
    else if (rule.prefix && !rule.prefix(env).some((p) => value.startsWith(p)))
      problems.push({ name: rule.name, problem: "wrong kind" });
  }
  // Sessions and mail webhooks signed with one key: a copy-paste of one secret into another is refused too.
  const keys = [env.SESSION_SECRET, env.PASSWORD_PEPPER, env.MAIL_WEBHOOK_SECRET, env.ADMIN_TOKEN].filter(Boolean);
  if (new Set(keys).size !== keys.length)
    problems.push({
      name: "SESSION_SECRET/PASSWORD_PEPPER/MAIL_WEBHOOK_SECRET/ADMIN_TOKEN",
      problem: "development value",
    });
  // Each company's Mollie key (decision 206): live_/test_ plus 30 characters, production real money only;
  // an organisation access token (access_) asks in test mode outside production. A company without
  // its key is refused per brand (refuseBrandWithoutAccount), as only D1 knows the companies.
  for (const [name, value] of Object.entries(env))
    if (name.startsWith("MOLLIE_API_KEY_") && typeof value === "string" && value.trim() !== "") {
      const v = value.trim();
      if (v.length < 35) problems.push({ name, problem: "too short" });
      else if (!(isLive(env) ? ["live_", "access_"] : ["test_", "access_"]).some((p) => v.startsWith(p)))
        problems.push({ name, problem: "wrong kind" });
    }
  if ((env.MAIL_TRANSPORT ?? "cloudflare") === "cloudflare" && !env.MAIL)
    problems.push({ name: "MAIL (send_email binding)", problem: "missing" });
  return problems;
}

/** One log line, names and kinds only. */
export function describeProblems(problems: ConfigProblem[]): string {
  return problems.map((p) => `${p.name} (${p.problem})`).join(", ");
}

const checked = new WeakMap<object, ConfigProblem[]>();
/** What this isolate already logged: one line per distinct problem, not one per request. */
const logged = new Set<string>();

/**
 * The check for this isolate: computed once per env object, logged once. Returns the 503 to send, or
 * null when the Worker may serve.
 */
export function refuseUnconfigured(env: Env): Response | null {
  let problems = checked.get(env);
  if (!problems) {
    problems = configProblems(env);
    checked.set(env, problems);
  }
  if (problems.length === 0) return null;
  const missing = describeProblems(problems);
  if (!logged.has(missing)) {
    logged.add(missing);
    logError("config.not_configured", undefined, { environment: env.ENVIRONMENT, missing });
  }
  return notConfiguredResponse();
}

/**
 * Deliberately plain and untranslated: with its secrets wrong the Worker must not touch the database
 * (brand, language), and the page is for the operator, not for members.
 */
export function notConfiguredResponse(): Response {
  return new Response(
    "<!doctype html><title>503 Not configured</title><h1>503 Not configured</h1><p>This site is not configured yet.</p>\n",
    {
      status: 503,
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "300" },
    },
  );
}
