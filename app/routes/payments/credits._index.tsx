import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { codeForPrices, codeLookupStatement, discountedPackage } from "~/models/discounts.server";
import {
  countryOptions,
  isCountryCode,
  methodImages,
  paymentCountryCookie,
  paymentCountryOf,
  shopData,
} from "~/models/payments/methods.server";
import { paymentTarget } from "~/models/payments/common.server";
import { PackageGrid, PaymentMethods, ShopPage, shopLinks } from "~/components/pages/Shop";
import { CountryPicker, paymentsHandle } from "~/components/payments/Payments";
import { CreditWorth } from "~/components/payments/CreditWorth";
import { creditWorth, countryName } from "~/models/shop.server";
import { pricesFor } from "~/models/credits.server";
import { ActiveDiscountNote } from "~/components/offers/DiscountCode";
import paymentsStyles from "~/styles/payments.css";
import { readForm } from "~/lib/body.server";
import { safeChatReturnPath } from "~/lib/chat-return";
import { chatReturnCookie, readChatReturn } from "~/lib/chat-return.server";

/** The credit packages p0–p3 and the payment methods of the member's payment country. */
export const handle = paymentsHandle;
export const links = () => [...shopLinks(), { rel: "stylesheet", href: paymentsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { brand, lng, t, country: visitorCountry }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "shop"),
  ]);
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
    worth: creditWorth(lng, brand.currency, data.packages, pricesFor(brand, member.country)),
    worthCountry: countryName(lng, member.country),
    // Came from a chat's "buy credits": the payment leads back there, the typed text kept (decision 179).
    fromChat: readChatReturn(request) !== null,
    discount:
      packages.some((p) => p.was) && data.discount
        ? { code: data.discount.code, percentage: data.discount.valuePercentage }
        : null,
    title: t("credits.title"),
    credits: member.credits,
    paidUser: member.paidUser,
    packages,
    methods: data.methods.map((m) => m.method),
    images: methodImages(data.methods),
    directDebitBlocked: data.directDebitBlocked,
    country,
    countries: countryOptions(lng, data.countries, country),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context);
  if (form?.get("intent") === "fromChat") {
    // "Buy credits" in a chat posts the chat's form here: remember that chat and the typed text (decision 179).
    await requireMember(request, context);
    const { brand } = await pageContext(request, context, "shop");
    const path = safeChatReturnPath(form.get("returnTo"));
    if (!path) return redirect("/credits");
    const draft = String(form.get("body") ?? "").slice(0, brand.messageLength);
    return redirect("/credits", { headers: { "Set-Cookie": chatReturnCookie(path, draft) } });
  }
  const chosen = String(form?.get("country") ?? "").toUpperCase();
  if (form?.get("intent") !== "country" || !isCountryCode(chosen)) throw new Response("Bad request", { status: 400 });
  return redirect("/credits", { headers: { "Set-Cookie": paymentCountryCookie(chosen) } });
}

export default function Credits() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shop", "payments"]);
  return (
    <ShopPage title={t("credits.title")} lead={t("credits.balance", { count: d.credits })}>
      {d.fromChat ? (
        <p className="alert alert-info" data-testid="from-chat">
          {t("worth.fromChat")}
        </p>
      ) : null}
      <section className="page-section">
        <h2>{t("credits.choose")}</h2>
        {d.discount ? <ActiveDiscountNote {...d.discount} /> : null}
        <PackageGrid packages={d.packages} linkTo={(id) => `/credits/${id}`} popular={t("payments:mostPopular")} />
      </section>
      <CreditWorth worth={d.worth} country={d.worthCountry} />
      <section className="page-section shop-columns">
        <CountryPicker country={d.country} countries={d.countries} />
        <div>
          <h2>{t("credits.methods")}</h2>
          <PaymentMethods methods={d.methods} images={d.images} />
          {d.directDebitBlocked ? (
            <p className="alert alert-info" data-testid="dd-blocked">
              {t("payments:pay.directDebitBlocked")}
            </p>
          ) : null}
        </div>
      </section>
      <p className="payment-actions">
        {d.paidUser ? (
          <Link to="/credits/repeat-order" className="btn btn-outline btn-sm">
            {t("payments:transactions.repeat")}
          </Link>
        ) : null}
        <Link to="/transactions" className="btn btn-outline btn-sm">
          {t("transactions.title")}
        </Link>
      </p>
    </ShopPage>
  );
}
