// Shared by the setup and deploy scripts: the chosen environment (--env staging|production), its
// resolved wrangler.toml section, the required secrets as app/lib/config.server.ts lists them, and a
// wrangler runner.
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { unstable_readConfig } from "wrangler";

export function chosenEnv(argv = process.argv.slice(2)) {
  const i = argv.indexOf("--env");
  const name = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith("--env="))?.slice(6);
  if (name !== "staging" && name !== "production") {
    console.error(
      "Name the environment: --env staging or --env production (the top level of wrangler.toml is development only).",
    );
    process.exit(2);
  }
  return name;
}

export const readEnvConfig = (env) => unstable_readConfig({ config: "wrangler.toml", env });

/** The secret names and their conditions, read from the one list the Worker enforces. */
export function requiredSecrets(config) {
  const src = readFileSync(new URL("../app/lib/config.server.ts", import.meta.url), "utf8");
  const block = src.slice(src.indexOf("REQUIRED_SECRETS"), src.indexOf("];", src.indexOf("REQUIRED_SECRETS")));
  const vars = config.vars ?? {};
  return [...block.matchAll(/\{ name: "([A-Z_]+)"[^\n]*/g)]
    .filter(([line]) => {
      if (line.includes("when: directDebit")) return vars.DIRECT_DEBIT === "1";
      if (line.includes('MAIL_TRANSPORT === "http"')) return vars.MAIL_TRANSPORT === "http";
      return true;
    })
    .map((m) => m[1]);
}

/** Runs `npx wrangler …`; returns { status, out } (stdout+stderr) and echoes the command. */
export function wrangler(args, { quiet = false } = {}) {
  if (!quiet) console.log(`$ wrangler ${args.join(" ")}`);
  const r = spawnSync("npx", ["wrangler", ...args], {
    encoding: "utf8",
    stdio: quiet ? "pipe" : ["inherit", "pipe", "pipe"],
  });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (!quiet) process.stdout.write(out);
  return { status: r.status ?? 1, out };
}

/** Secrets already set on the deployed Worker (none when it was never deployed). */
export function setSecrets(env) {
  const { status, out } = wrangler(["secret", "list", "--env", env, "--format", "json"], { quiet: true });
  if (status !== 0) return [];
  try {
    return JSON.parse(out.slice(out.indexOf("["))).map((s) => s.name);
  } catch {
    return [];
  }
}
