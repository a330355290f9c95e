/**
 * The accounting export (finance, admin): one brand's month as a CSV download (decision 178). A POST,
 * because it is audited: the audit row names who exported which brand and month.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { getDb } from "../../../db/client";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { accountingCsv, accountingLines } from "~/models/admin/payments.server";
import { auditStatement } from "~/models/admin/audit.server";
import { brandsById } from "~/models/brand.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "payments";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  // The export is a form (a POST, audited) on the payments page.
  throw redirect("/admin/payments");
}

const ExportForm = z.object({
  brand: z.coerce.number().int().positive(),
  month: z.string().regex(/^(19|20)\d{2}-(0[1-9]|1[0-2])$/),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const parsed = ExportForm.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) throw new Response("Choose a brand and a month (YYYY-MM).", { status: 400 });
  const brand = (await brandsById(context.env)).get(parsed.data.brand);
  if (!brand) throw new Response("No such brand.", { status: 404 });
  const lines = await accountingLines(context.env.DB, brand, parsed.data.month);
  const db = getDb(context.env.DB);
  await auditStatement(db, operator, {
    action: "payment.export",
    targetType: "brand",
    targetId: String(brand.id),
    after: { month: parsed.data.month, lines: lines.filter((l) => l.type !== "total").length },
  });
  const name = `${brand.name.replace(/[^A-Za-z0-9]+/g, "-")}-${parsed.data.month}.csv`;
  return new Response(accountingCsv(lines), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
