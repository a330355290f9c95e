import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { CheckoutUnavailable, ShopPage, shopHandle, shopLinks } from "~/components/pages/Shop";

/** SEPA direct debit: what it will ask for; the form itself comes with the payments work. */
export const handle = shopHandle;
export const links = shopLinks;

const FIELDS = ["holder", "iban", "street", "houseNumber", "postalCode", "city", "mobile", "smsCode"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  const { t } = await pageContext(request, context, "shop");
  return { title: t("directdebit.title") };
}

export default function DirectDebit() {
  useLoaderData<typeof loader>();
  const { t } = useTranslation("shop");
  return (
    <ShopPage title={t("directdebit.title")} lead={t("directdebit.lead")}>
      <CheckoutUnavailable />
      <section className="card">
        <h2>{t("directdebit.needed")}</h2>
        <ul>{FIELDS.map((f) => <li key={f}>{t(`directdebit.fields.${f}`)}</li>)}</ul>
      </section>
      <p><Link to="/credits">{t("directdebit.toCredits")}</Link></p>
    </ShopPage>
  );
}
