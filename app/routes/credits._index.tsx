import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { toPackage } from "~/models/shop.server";
import { countryOptions, isCountryCode, paymentCountryCookie, paymentCountryOf, shopData } from "~/models/payments.server";
import { PackageGrid, PaymentMethods, ShopPage, shopLinks } from "~/components/pages/Shop";
import { CountryPicker, paymentsHandle } from "~/components/payments/Payments";
import paymentsStyles from "~/styles/payments.css";

/** The credit packages p0–p3 and the payment methods of the member's payment country. */
export const handle = paymentsHandle;
export const links = () => [...shopLinks(), { rel: "stylesheet", href: paymentsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { lng, t, country: visitorCountry } = await pageContext(request, context, "shop");
  const country = paymentCountryOf(request, visitorCountry);
  const data = await shopData(context, { country, userId: member.id });
  return {
    title: t("credits.title"),
    credits: member.credits,
    paidUser: member.paidUser,
    packages: data.packages.map((p) => toPackage(lng, p)),
    methods: data.methods.map((m) => m.method),
    country,
    countries: countryOptions(lng, data.countries, country),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => null);
  const chosen = String(form?.get("country") ?? "").toUpperCase();
  if (form?.get("intent") !== "country" || !isCountryCode(chosen)) throw new Response("Bad request", { status: 400 });
  return redirect("/credits", { headers: { "Set-Cookie": paymentCountryCookie(chosen) } });
}

export default function Credits() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shop", "payments"]);
  return (
    <ShopPage title={t("credits.title")} lead={t("credits.balance", { count: d.credits })}>
      <section className="page-section">
        <h2>{t("credits.choose")}</h2>
        <PackageGrid packages={d.packages} linkTo={(id) => `/credits/${id}`} popular={t("payments:mostPopular")} />
      </section>
      <section className="page-section shop-columns">
        <CountryPicker country={d.country} countries={d.countries} />
        <div>
          <h2>{t("credits.methods")}</h2>
          <PaymentMethods methods={d.methods} />
        </div>
      </section>
      <p className="payment-actions">
        {d.paidUser ? <Link to="/credits/repeat-order" className="btn btn-outline btn-sm">{t("payments:transactions.repeat")}</Link> : null}
        <Link to="/transactions" className="btn btn-outline btn-sm">{t("transactions.title")}</Link>
      </p>
    </ShopPage>
  );
}
