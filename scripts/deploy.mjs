// `npm run deploy -- --env production` (or staging): build, refuse when the bundle is over budget,
// apply the D1 migrations to the remote database, then deploy. Stops at the first failure, so a
// Worker never runs ahead of its schema. README "Going live".
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
run("npx", ["wrangler", "deploy", "--env", env]);
console.log(`deploy: ${env} is live. Check https://<a brand domain>/readyz`);
