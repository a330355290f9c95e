// `npm run setup:cloudflare -- --env production`: creates the environment's D1 database, R2 bucket and
// queues with wrangler (an existing one is kept), prints the database id to put into wrangler.toml,
// and lists the secrets still to set. Safe to run again. docs/operations/going-live.md.
import { chosenEnv, readEnvConfig, requiredSecrets, setSecrets, wrangler } from "./cloud-env.mjs";

const env = chosenEnv();
const config = readEnvConfig(env);
const already = (out) => /already exists|already own|already taken|code: 10073|code: 7502|11009/i.test(out);

const db = config.d1_databases[0];
const created = wrangler(["d1", "create", db.database_name]);
let id = /database_id\s*=\s*"([0-9a-f-]{36})"|"database_id":\s*"([0-9a-f-]{36})"/
  .exec(created.out)
  ?.slice(1)
  .find(Boolean);
if (!id) {
  const list = wrangler(["d1", "list", "--json"], { quiet: true });
  try {
    id = JSON.parse(list.out.slice(list.out.indexOf("["))).find((d) => d.name === db.database_name)?.uuid;
  } catch {}
}
for (const bucket of config.r2_buckets) {
  const r = wrangler(["r2", "bucket", "create", bucket.bucket_name]);
  if (r.status !== 0 && !already(r.out)) process.exitCode = 1;
}
const queues = new Set([
  ...(config.queues.producers ?? []).map((q) => q.queue),
  ...(config.queues.consumers ?? []).map((q) => q.queue),
]);
for (const queue of queues) {
  const r = wrangler(["queues", "create", queue]);
  if (r.status !== 0 && !already(r.out)) process.exitCode = 1;
}

console.log(`\n== wrangler.toml, [[env.${env}.d1_databases]] ==`);
if (!id) {
  console.log(`Could not read the id of D1 database ${db.database_name}: see \`npx wrangler d1 list\`.`);
  process.exitCode = 1;
} else if (id === db.database_id) console.log(`database_id = "${id}" (already in wrangler.toml)`);
else console.log(`database_id = "${id}"   <- replace the zero id with this one`);

const set = new Set(setSecrets(env));
const missing = requiredSecrets(config).filter((name) => !set.has(name));
console.log(`\n== Secrets of ${config.name} ==`);
if (missing.length === 0) console.log("All required secrets are set.");
else {
  console.log("Still to set (each asks for the value; see docs/operations/going-live.md for what goes in):");
  for (const name of missing) console.log(`  npx wrangler secret put ${name} --env ${env}`);
}
console.log(
  `\nMollie: one key per company (decision 206): npx wrangler secret put MOLLIE_API_KEY_<ACCOUNT> --env ${env}, ` +
    "ACCOUNT being the company's Mollie account named in the console (the brand's page shows whether it is set).",
);
console.log("\nOptional: npx wrangler secret put SENTRY_DSN --env " + env + " (errors to Sentry)");
