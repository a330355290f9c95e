/** One brand's settings (admin; decision 181): one server-rendered form, saved with its audit row, effective at once. */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrandForm } from "~/components/admin/BrandForm";
import { readForm } from "~/lib/body.server";
import { brandFields, companyFieldset, COMPANY_PREFIX, formValuesOf } from "~/models/admin/brand-fields";
import { brandForForm, companyChoices, saveBrand } from "~/models/admin/brands.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { accountView } from "~/lib/payments/account";
import { PaymentAccount } from "~/components/admin/PaymentAccount";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "brands";

const idOf = (raw: string | undefined) => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const id = idOf(params.id);
  const found = id === null ? null : await brandForForm(context.env.DB, id);
  if (!found) throw new Response("No such brand.", { status: 404 });
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    id: found.brand.id,
    name: found.brand.name,
    hostname: found.brand.hostname,
    stored: {
      ...formValuesOf(brandFields(), found.brand),
      ...formValuesOf(companyFieldset().fields, found.company, { prefix: COMPANY_PREFIX }),
      companyId: String(found.brand.companyId),
    },
    companies: await companyChoices(context.env.DB),
    // Which Mollie account the brand's money goes to, and whether its key is there (never the key).
    account: accountView(context.env, { ...found.brand, company: found.company }),
    saved: saved === "1" ? "Saved. The site uses the new settings now." : saved === "0" ? "Nothing changed." : null,
    title: `Brand ${found.brand.name}`,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = idOf(params.id);
  if (id === null) throw new Response("No such brand.", { status: 404 });
  const result = await saveBrand(context.env.DB, operator, id, await readForm(request, context));
  if (!result.ok) return data({ reply: result.reply }, { status: result.status });
  return redirect(`/admin/brands/${id}?saved=${result.changed ? 1 : 0}`);
}

export default function AdminBrand() {
  const { name, hostname, stored, companies, saved, account } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <p>
        <a href="/admin/brands">← Brands</a>
      </p>
      <h1>
        {name} <code className="a-muted">{hostname}</code>
      </h1>
      {saved ? (
        <p className="a-ok" role="status">
          {saved}
        </p>
      ) : null}
      <PaymentAccount account={account} />
      <BrandForm stored={stored} last={result?.reply} companies={companies} editsCompany submit="Save settings" />
    </>
  );
}
