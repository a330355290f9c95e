import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { LANDER_KINDS, loadLander } from "~/models/pages.server";
import { LanderRoute, landerHandle, landerLinks } from "~/components/pages/Lander";

/** /landers/{alonetonight,collagelanding,…}/{slug?}; the slug is a campaign tag and changes nothing yet. */
export const handle = landerHandle;
export const links = landerLinks;
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadLander(request, context, (LANDER_KINDS as readonly string[]).includes(params.kind ?? "") ? params.kind : undefined);
export default LanderRoute;
