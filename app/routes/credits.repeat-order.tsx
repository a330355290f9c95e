import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { lastPaidOrder } from "~/models/shop.server";
import { CheckoutUnavailable, ShopPage, shopHandle, shopLinks } from "~/components/pages/Shop";

/** Repeat order is premium-only (SPEC section 6): free members are told so and sent to /premium. */
export const handle = shopHandle;
export const links = shopLinks;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { lng, t } = await pageContext(request, context, "shop");
  if (!member.paidUser) return { title: t("repeat.title"), premium: false as const, last: null };
  return { title: t("repeat.title"), premium: true as const, last: await lastPaidOrder(context, lng, member.id) };
}

export default function RepeatOrder() {
  const { premium, last } = useLoaderData<typeof loader>();
  const { t } = useTranslation("shop");
  if (!premium) {
    return (
      <ShopPage title={t("repeat.title")}>
        <p className="alert alert-warning" data-testid="premium-only">{t("repeat.premiumOnly")}</p>
        <Link to="/premium" className="btn btn-primary">{t("repeat.getPremium")}</Link>
      </ShopPage>
    );
  }
  return (
    <ShopPage title={t("repeat.title")} lead={t("repeat.lead")}>
      {last ? (
        <section className="card" data-testid="last-order">
          <h2>{t("repeat.last")}</h2>
          <p>{t("repeat.lastOrder", { count: last.credits, amount: last.amount, date: last.date })}</p>
        </section>
      ) : (
        <p data-testid="no-order">{t("repeat.none")}</p>
      )}
      <CheckoutUnavailable />
      <Link to="/credits" className="btn btn-primary">{t("repeat.toCredits")}</Link>
    </ShopPage>
  );
}
