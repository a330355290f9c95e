import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isStaticSlug, loadStaticPage } from "~/models/pages.server";
import { StaticPageRoute, staticPageHandle, staticPageLinks } from "~/components/pages/StaticPage";

/** /pages/{cookies,privacy,terms,faq,return-policy,service,ban,impressum}; texts resolved server-side. */
export const handle = staticPageHandle;
export const links = staticPageLinks;
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadStaticPage(request, context, isStaticSlug(params.slug) ? params.slug : null);
export default StaticPageRoute;
