import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadStaticPage } from "~/models/pages.server";
import { StaticPageRoute, staticPageHandle, staticPageLinks } from "~/components/pages/StaticPage";

/** How to complain: by e-mail or post (no complaint form until a Mailer exists; decision 021). */
export const handle = staticPageHandle;
export const links = staticPageLinks;
export const loader = ({ request, context }: LoaderFunctionArgs) => loadStaticPage(request, context, "complaints");
export default StaticPageRoute;
