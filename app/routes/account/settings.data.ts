import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { exportMemberData } from "~/models/accounts/export.server";
import { requireMember } from "~/models/session.server";

/** GDPR right of access: everything stored about the member, as a JSON download (reading only). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const data = await exportMemberData(context.env, member.id);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="my-data-${day}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
