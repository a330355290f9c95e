// `npm run deploy -- --env production` (or staging): build, refuse when the bundle is over budget,
// apply the D1 migrations to the remote database, then deploy. Stops at the first failure, so a
// Worker never runs ahead of its schema. docs/operations/going-live.md.
import { spawnSync } from "node:child_process";
import { checkBudget } from "./bundle-budget.mjs";
import { chosenEnv } from "./cloud-env.mjs";

const env = chosenEnv();
const run = (cmd, args) => {
  console.log(`$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`deploy: "${cmd} ${args.join(" ")}" failed; nothing further was done.`);
    process.exit(r.status ?? 1);
  }
};

run("npm", ["run", "build"]);
if (!checkBudget(env)) {
  console.error("deploy: refused, the Worker bundle is over budget (decision 171).");
  process.exit(1);
}
run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--remote", "--env", env]);
// The images Worker first: the page Worker's IMAGES binding must find it (decision 171).
run("npx", ["wrangler", "deploy", "-c", "workers/images/wrangler.toml", "--env", env]);
// The release is the deployed commit: the Worker names it in every Sentry event (SENTRY_RELEASE) and the
// source maps are uploaded under it, so Sentry shows the stack in the sources (decision 231).
const release = spawnSync("git", ["rev-parse", "--short=12", "HEAD"], { encoding: "utf8" }).stdout.trim() || "unknown";
const outdir = `.wrangler/deploy-${env}`;
run("npx", [
  "wrangler",
  "deploy",
  "--env",
  env,
  "--var",
  `SENTRY_RELEASE:${release}`,
  "--outdir",
  outdir,
  "--upload-source-maps",
]);
// Needs SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT in the deploying shell (never in the repository).
if (process.env.SENTRY_AUTH_TOKEN) {
  run("npx", ["--yes", "@sentry/cli@2", "releases", "new", release]);
  run("npx", ["--yes", "@sentry/cli@2", "sourcemaps", "upload", "--release", release, "--url-prefix", "/", outdir]);
  run("npx", ["--yes", "@sentry/cli@2", "releases", "finalize", release]);
} else console.log("deploy: SENTRY_AUTH_TOKEN not set, source maps not uploaded to Sentry.");
console.log(`deploy: ${env} is live. Check https://<a brand domain>/readyz`);
