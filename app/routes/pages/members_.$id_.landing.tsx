import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { loadMemberLanding } from "~/models/pages.server";
import { MemberLandingRoute, landerHandle, landerLinks } from "~/components/pages/Lander";

// members_ and $id_ keep this page out of the members screens' layouts.
export const handle = landerHandle;
export const links = landerLinks;
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  loadMemberLanding(request, context, params.id, "landing");
export default MemberLandingRoute;
