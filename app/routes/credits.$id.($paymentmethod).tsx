import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { PAYMENT_METHODS } from "~/lib/constants";
import { requireMember } from "~/models/session.server";
import { getPackage, isPaymentMethod } from "~/models/shop.server";
import { CheckoutUnavailable, PackageGrid, PaymentMethods, ShopPage, shopHandle, shopLinks } from "~/components/pages/Shop";

/** /credits/{package}/{paymentmethod?}: the chosen package and the method to pay it with. */
export const handle = shopHandle;
export const links = shopLinks;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireMember(request, context);
  const { lng, t } = await pageContext(request, context, "shop");
  const method = params.paymentmethod;
  if (method !== undefined && !isPaymentMethod(method)) throw new Response("Not found", { status: 404 });
  const pkg = await getPackage(context, lng, params.id ?? "");
  if (!pkg) throw new Response("Not found", { status: 404 });
  return { title: t("method.title"), pkg, method: method ?? null };
}

export default function PaymentMethod() {
  const { pkg, method } = useLoaderData<typeof loader>();
  const { t } = useTranslation("shop");
  return (
    <ShopPage title={t("method.title")} lead={t("method.lead", { name: t(`tiers.${pkg.tier}`), price: pkg.price })}>
      <div className="shop-columns">
        <PackageGrid packages={[pkg]} />
        <section>
          <h2>{t("method.choose")}</h2>
          <PaymentMethods methods={PAYMENT_METHODS} selected={method ?? undefined} linkTo={(m) => `/credits/${pkg.id}/${m}`} />
        </section>
      </div>
      <CheckoutUnavailable />
      <p><Link to="/credits">{t("method.otherPackage")}</Link></p>
    </ShopPage>
  );
}
