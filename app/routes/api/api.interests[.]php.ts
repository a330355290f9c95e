import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { pageContext } from "~/lib/page.server";
import { INTERESTS } from "~/lib/constants";

/** GET /api/interests.php: every interest with its name in the visitor's language. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { t, lng } = await pageContext(request, context, "members");
  const interests = INTERESTS.map((id) => ({ id, name: t(`interests.${id}`) }));
  return jsonResponse({ interests }, { maxAge: 3600, headers: { "Content-Language": lng, Vary: "Cookie" } });
}
