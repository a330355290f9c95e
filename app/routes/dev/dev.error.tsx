import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isDeployed } from "~/lib/env";

/** Development only: a route that fails, to see and test the 500 error page. */
export function loader({ context }: LoaderFunctionArgs) {
  if (isDeployed(context.env)) throw new Response("Not found", { status: 404 });
  throw new Error("Deliberate failure for testing the error page");
}

export default function DevError() {
  return null;
}
