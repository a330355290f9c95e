import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadStaticPage, slugOfToken } from "~/models/pages.server";
import { StaticPageRoute, staticPageHandle, staticPageLinks } from "~/components/pages/StaticPage";

/** docs/product/screens.md §2's `{token}` static page: /2257 is the compliance statement; any other token is a 404. */
export const handle = staticPageHandle;
export const links = staticPageLinks;
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadStaticPage(request, context, slugOfToken(params.token));
export default StaticPageRoute;
