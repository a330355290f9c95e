import type { Env } from "./env";

/**
 * Whether a request may use an end-to-end test endpoint (/dev/sql, /dev/wallet): only with
 * ENVIRONMENT=test and on localhost; everywhere else they answer 404.
 */
export function e2eEndpoint(request: Request, env: Pick<Env, "ENVIRONMENT">): boolean {
  return env.ENVIRONMENT === "test" && ["localhost", "127.0.0.1"].includes(new URL(request.url).hostname);
}
