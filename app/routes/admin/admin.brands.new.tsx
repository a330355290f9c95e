/** Adding a brand (admin; decision 181): the brand form, filled with the default brand's settings. */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { BrandForm } from "~/components/admin/BrandForm";
import { readForm } from "~/lib/body.server";
import { brandFields, formValuesOf } from "~/models/admin/brand-fields";
import { companyChoices, defaultBrand, saveBrand } from "~/models/admin/brands.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "brands";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const base = await defaultBrand(context.env.DB);
  if (!base) throw new Response("No default brand to copy: run the seed.", { status: 404 });
  return {
    base: base.brand.name,
    stored: { ...formValuesOf(brandFields(), base.brand, { blankNew: true }), companyId: String(base.brand.companyId) },
    companies: await companyChoices(context.env.DB),
    title: "Add a brand",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const result = await saveBrand(context.env.DB, operator, null, await readForm(request, context));
  if (!result.ok) return data({ reply: result.reply }, { status: result.status });
  return redirect(`/admin/brands?added=${result.id}`);
}

export default function AdminBrandNew() {
  const { base, stored, companies } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <p>
        <a href="/admin/brands">← Brands</a>
      </p>
      <h1>Add a brand</h1>
      <p className="a-muted">
        The settings start as {base}&apos;s, the default brand; name, host and texts are yours to fill in. The new brand
        answers on its host name as soon as that domain is routed to the Worker (a route or custom domain in Cloudflare,
        see docs/architecture/console.md, &quot;Running the site&quot;); until then nobody reaches it.
      </p>
      <BrandForm
        stored={stored}
        last={result?.reply}
        companies={companies}
        editsCompany={false}
        submit="Add the brand"
      />
    </>
  );
}
