import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadLander } from "~/models/landers.server";
import { LanderRoute, landerHandle, landersLinks } from "~/components/landers/Lander";

/** /landers/{kind}/{slug?}: the kind picks the design, the slug the niche (unknown slug: the brand's). */
export const handle = landerHandle;
export const links = landersLinks;
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadLander(request, context, params.kind, params.slug);
export default LanderRoute;
