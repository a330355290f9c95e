import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { FREE_PHOTOS, PREMIUM_PHOTOS } from "~/lib/constants";
import { requireMember } from "~/models/session.server";
import { paymentCountryOf, shopData } from "~/models/payments/methods.server";
import { paymentTarget } from "~/models/payments/common.server";
import { codeForPrices, codeLookupStatement, discountedPackage } from "~/models/discounts.server";
import { PackageGrid, ShopPage, shopLinks } from "~/components/pages/Shop";
import { paymentsHandle } from "~/components/payments/Payments";
import { CreditWorth } from "~/components/payments/CreditWorth";
import { creditWorth, countryName } from "~/models/shop.server";
import { pricesFor } from "~/models/credits.server";
import { WelcomeOffer } from "~/components/offers/WelcomeOffer";
import paymentsStyles from "~/styles/payments.css";

/** What premium gives (docs/product/roles.md §6); the first credit purchase makes a member premium. */
export const handle = paymentsHandle;
export const links = () => [...shopLinks(), { rel: "stylesheet", href: paymentsStyles }];

const BENEFITS = ["photos", "uploads", "badge", "unblurred", "repeat"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand, t, lng, country: visitorCountry } = await pageContext(request, context, "shop");
  const country = paymentCountryOf(request, visitorCountry);
  const active = codeForPrices(member, brand);
  const data = await shopData(context, {
    target: paymentTarget(brand),
    country,
    brandId: brand.id,
    currency: brand.currency,
    userId: member.id,
    discount: active && codeLookupStatement(context.env.DB, active.code, member.id),
  });
  const packages = data.packages.map((p) => discountedPackage(lng, p, data.discount, { member, brand, country }));
  return {
    title: t("premium.title"),
    paidUser: member.paidUser,
    packages,
    // Premium does not make messages free: what each costs, next to what premium gives (decision 179).
    worth: creditWorth(lng, brand.currency, data.packages, pricesFor(brand, member.country)),
    worthCountry: countryName(lng, member.country),
  };
}

export default function Premium() {
  const { paidUser, packages, worth, worthCountry } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shop", "payments"]);
  return (
    <>
      <WelcomeOffer />
      <ShopPage title={t("premium.title")} lead={t("premium.lead")}>
        {paidUser ? (
          <p className="alert alert-success" data-testid="is-premium">
            {t("premium.already")}
          </p>
        ) : null}
        <ul className="premium-benefits" data-testid="benefits">
          {BENEFITS.map((b) => (
            <li key={b} className="card premium-benefit">
              <h2>{t(`premium.benefits.${b}.title`, { count: PREMIUM_PHOTOS, free: FREE_PHOTOS })}</h2>
              <p>{t(`premium.benefits.${b}.text`, { count: PREMIUM_PHOTOS, free: FREE_PHOTOS })}</p>
            </li>
          ))}
        </ul>
        <CreditWorth worth={worth} country={worthCountry} />
        <section className="page-section" data-testid="premium-tiers">
          <h2>{t("payments:premium.tiers")}</h2>
          <p>{t("payments:premium.tiersLead")}</p>
          <PackageGrid packages={packages} linkTo={(id) => `/credits/${id}`} popular={t("payments:mostPopular")} />
        </section>
        <Link to="/credits" className="btn btn-primary btn-lg">
          {t(paidUser ? "premium.more" : "premium.cta")}
        </Link>
      </ShopPage>
    </>
  );
}
