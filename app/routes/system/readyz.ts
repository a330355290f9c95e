import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readiness } from "~/lib/readiness.server";

/** Readiness (decision 170): D1, R2 and the queue answer. 200 "ready" or 503 naming what failed; no data shown. */
export async function loader({ context }: LoaderFunctionArgs) {
  const checks = await readiness(context.env);
  const failed = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  return new Response(failed.length ? `not ready: ${failed.join(", ")}\n` : "ready\n", {
    status: failed.length ? 503 : 200,
    headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
  });
}
