import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadLander } from "~/models/pages.server";
import { LanderRoute, landerHandle, landerLinks } from "~/components/pages/Lander";

export const handle = landerHandle;
export const links = landerLinks;
export const loader = ({ request, context }: LoaderFunctionArgs) => loadLander(request, context, "tinderswipe");
export default LanderRoute;
