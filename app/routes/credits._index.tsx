import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { PAYMENT_METHODS } from "~/lib/constants";
import { requireMember } from "~/models/session.server";
import { listPackages } from "~/models/shop.server";
import { CheckoutUnavailable, PackageGrid, PaymentMethods, ShopPage, shopHandle, shopLinks } from "~/components/pages/Shop";

/** Credit packages p0–p3 with prices from D1; checkout arrives with the payments work. */
export const handle = shopHandle;
export const links = shopLinks;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { lng, t } = await pageContext(request, context, "shop");
  return { title: t("credits.title"), credits: member.credits, packages: await listPackages(context, lng) };
}

export default function Credits() {
  const { packages, credits } = useLoaderData<typeof loader>();
  const { t } = useTranslation("shop");
  return (
    <ShopPage title={t("credits.title")} lead={t("credits.balance", { count: credits })}>
      <CheckoutUnavailable />
      <section className="page-section">
        <h2>{t("credits.choose")}</h2>
        <PackageGrid packages={packages} linkTo={(id) => `/credits/${id}`} />
      </section>
      <section className="page-section">
        <h2>{t("credits.methods")}</h2>
        <PaymentMethods methods={PAYMENT_METHODS} />
      </section>
    </ShopPage>
  );
}
