import { paymentOrigin } from "~/models/brand.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { formatMoney, isPaymentMethod } from "~/models/shop.server";
import {
  checkCode,
  codeForPrices,
  codeLookupStatement,
  discountedPackage,
  evaluateCode,
} from "~/models/discounts.server";
import {
  countryOptions,
  isCountryCode,
  paymentCountryCookie,
  paymentCountryOf,
  methodImages,
  shopData,
} from "~/models/payments/methods.server";
import { intentKeyOf, newIntentKey, startCheckout } from "~/models/payments/checkout.server";
import { packageRow, paymentTarget } from "~/models/payments/common.server";
import { paymentView } from "~/models/payments/views.server";
import { askProviderOnce } from "~/models/payments/checks.server";
import { paymentTitleKey } from "~/models/payment-rules";
import { PackageGrid, PaymentMethods, ShopPage, packageName, shopLinks } from "~/components/pages/Shop";
import { oneTimeUsed } from "~/models/offers.server";
import {
  CompletedState,
  CountryPicker,
  FailedState,
  PayButton,
  PayLoading,
  PendingState,
  paymentsHandle,
} from "~/components/payments/Payments";
import { DiscountCodeForm, type CodeState } from "~/components/offers/DiscountCode";
import paymentsStyles from "~/styles/payments.css";
import { useWalletMethods } from "~/components/payments/wallets";
import { readForm } from "~/lib/body.server";
import { readChatReturn } from "~/lib/chat-return.server";

/**
 * /credits/{package}/{paymentmethod?}: pick a method (those of the payment country, in the order
 * people there use them), pay, and come back here with ?payment={id} to see how it went. This page
 * only reads the payment: the webhook is what completes it.
 */
export const handle = paymentsHandle;
export const links = () => [...shopLinks(), { rel: "stylesheet", href: paymentsStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [member, { brand, lng, t, country: visitorCountry }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "shop"),
  ]);
  const method = params.paymentmethod;
  if (method !== undefined && !isPaymentMethod(method)) throw new Response("Not found", { status: 404 });
  const country = paymentCountryOf(request, visitorCountry);
  const query = new URL(request.url).searchParams;
  const paymentId = query.get("payment");
  // A code typed in the form (?code=), else the member's active discount (time bonus or welcome).
  const typed = (query.get("code") ?? "").slice(0, 100);
  const chosen = codeForPrices(member, brand, typed);
  const discount = chosen && codeLookupStatement(context.env.DB, chosen.code, member.id);
  const data = await shopData(context, {
    target: paymentTarget(brand),
    country,
    brandId: brand.id,
    currency: brand.currency,
    packageId: params.id ?? "",
    userId: member.id,
    paymentId,
    discount,
  });
  const raw = data.packages[0];
  if (!raw) throw new Response("Not found", { status: 404 });
  if (paymentId && !data.payment) throw new Response("Not found", { status: 404 });
  const countries = countryOptions(lng, data.countries, country);
  const order = { member, brand, country, method: method ?? null };
  const pkg = { ...discountedPackage(lng, raw, data.discount, order), oneTime: !!raw.one_time };
  // The try-out package is bought once (checked again, race-proof, when the payment is stored).
  const usedUp = pkg.oneTime && !paymentId && (await oneTimeUsed(context.env.DB, member.id, raw.id));
  let codeState: CodeState | null = null;
  if (chosen?.typed) {
    const check = evaluateCode(discount ? data.discount : null, {
      ...order,
      packageId: raw.id,
      priceCents: raw.price_cents,
      currency: raw.currency,
    });
    codeState = check.ok
      ? { applied: { code: check.code.code, percentage: check.code.percentage } }
      : {
          error: check.error,
          minimum: check.minimum ? formatMoney(lng, check.minimum.cents, check.minimum.currency) : null,
        };
  }
  // Still open when the member comes back (no webhook yet): the provider is asked once.
  const payment = data.payment ? paymentView(lng, await askProviderOnce(context, data.payment.row)) : null;
  return {
    title: t(paymentTitleKey(payment) ?? "method.title"),
    pkg,
    code: pkg.was && data.discount ? data.discount.code : null,
    typed,
    codeState,
    method: method ?? null,
    // A one-time package is not bought on a direct debit mandate (the mandate's form sells the tiers).
    methods: data.methods.map((m) => m.method).filter((m) => !(pkg.oneTime && m === "sepa_directdebit")),
    images: methodImages(data.methods),
    directDebitBlocked: data.directDebitBlocked,
    country,
    countryName: countries.find((c) => c.code === country)?.name ?? country,
    countries,
    payment,
    firstPurchase: data.payment?.firstPurchase ?? false,
    balance: member.credits,
    // Bought from a chat: the completed payment leads back there, where the typed text waits (decision 179).
    backToChat: readChatReturn(request)?.path ?? null,
    usedUp,
    // The pay buttons' one-time token: this render's clicks, each charged once (decision 115).
    intentKey: newIntentKey(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand, country: visitorCountry } = await pageContext(request, context, "shop");
  const form = await readForm(request, context);
  if (!form) throw new Response("Bad request", { status: 400 });
  const here = new URL(request.url);
  if (form.get("intent") === "country") {
    const chosen = String(form.get("country") ?? "").toUpperCase();
    if (!isCountryCode(chosen)) return { error: "country" as const };
    return redirect(here.pathname, { headers: { "Set-Cookie": paymentCountryCookie(chosen) } });
  }
  if (form.get("intent") !== "pay") throw new Response("Bad request", { status: 400 });
  const method = String(form.get("method") ?? params.paymentmethod ?? "");
  if (!isPaymentMethod(method)) return { error: "method" as const };
  // Every pay button carries its click's token; a post without one (not our form) starts nothing.
  const intentKey = intentKeyOf(form.get("intent_key"));
  if (!intentKey) return data({ error: "provider" as const }, { status: 400 });
  const pkg = await packageRow(context, params.id ?? "", brand);
  if (!pkg) throw new Response("Not found", { status: 404 });
  const country = paymentCountryOf(request, visitorCountry);
  // The code is checked again with the method chosen: the amount charged is decided here, never by the form.
  const chosen = codeForPrices(member, brand, String(form.get("code") ?? "").slice(0, 100));
  const check = chosen
    ? await checkCode(context.env.DB, {
        member,
        brand,
        code: chosen.code,
        packageId: pkg.id,
        priceCents: pkg.price_cents,
        currency: pkg.currency,
        country,
        method,
      })
    : null;
  if (chosen?.typed && check && !check.ok) return { error: "code" as const, codeError: check.error };
  const result = await startCheckout(context, {
    brand,
    member,
    pkg,
    method,
    country,
    origin: paymentOrigin(brand, context.env, request),
    discount: check?.ok ? { codeId: check.code.id, amountCents: check.code.finalCents } : undefined,
    intentKey,
  });
  if (!result.ok && result.error === "discount") return { error: "code" as const, codeError: "used" as const };
  if (!result.ok && result.error === "once") return { error: "once" as const };
  if (!result.ok) return { error: result.error };
  return redirect(result.redirectTo);
}

export default function PaymentMethod() {
  const d = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const { t } = useTranslation(["shop", "payments"]);
  const tierName = packageName(t, d.pkg);
  const p = d.payment;
  // Apple Pay only where the browser can pay with it (components/payments/wallets.ts); a hook, so
  // called on every render, before the states that return early (a pending payment becomes failed).
  const usable = useWalletMethods(d.methods);
  if (p && p.state === "completed") {
    return (
      <ShopPage title={t(paymentTitleKey(p)!)}>
        {d.backToChat ? (
          <p className="pay-back-to-chat">
            <Link to={d.backToChat} className="btn btn-primary btn-lg" data-testid="back-to-chat">
              {t("payments:backToChat")}
            </Link>
          </p>
        ) : null}
        <CompletedState payment={p} balance={d.balance} firstPurchase={d.firstPurchase} />
      </ShopPage>
    );
  }
  if (p && p.state === "pending") {
    return (
      <ShopPage title={t(paymentTitleKey(p)!)}>
        <PendingState payment={p} />
      </ShopPage>
    );
  }
  const offered = d.method !== null && usable.includes(d.method);
  return (
    <ShopPage title={t("method.title")} lead={t("method.lead", { name: tierName, price: d.pkg.price })}>
      <PayLoading method={d.method ?? ""} />
      {p ? <FailedState payment={p} methods={d.methods} intentKey={d.intentKey} /> : null}
      {d.usedUp || failure?.error === "once" ? (
        <p className="alert alert-warning" role="alert" data-testid="tryout-used">
          {t("offers:tryout.used")}{" "}
          <Link to="/credits" className="alert-link">
            {t("offers:buy.credits")}
          </Link>
        </p>
      ) : null}
      {failure?.error === "code" ? (
        <p className="alert alert-danger" role="alert">
          {t(`offers:codeErrors.${failure.codeError}`)}
        </p>
      ) : failure?.error && failure.error !== "once" ? (
        <p className="alert alert-danger" role="alert">
          {t(failure.error === "method" ? "payments:pay.notHere" : "payments:pay.error", { country: d.countryName })}
        </p>
      ) : null}
      {/* #checkout: where a tapped method lands (without JavaScript too): the package, the methods and the pay button. */}
      <div className="shop-columns checkout" id="checkout">
        <PackageGrid packages={[d.pkg]} level={2} />
        <section className="pay-panel">
          {d.methods.length === 0 ? (
            <p className="alert alert-warning" role="alert">
              {t("payments:pay.none", { country: d.countryName })}
            </p>
          ) : (
            <>
              <h2>{t("payments:pay.choose")}</h2>
              <PaymentMethods
                methods={d.methods}
                selected={d.method ?? undefined}
                images={d.images}
                linkTo={(m) =>
                  `/credits/${d.pkg.id}/${m}${d.typed ? `?code=${encodeURIComponent(d.typed)}` : ""}#checkout`
                }
              />
            </>
          )}
          {d.directDebitBlocked ? (
            <p className="alert alert-info" data-testid="dd-blocked">
              {t("payments:pay.directDebitBlocked")}
            </p>
          ) : null}
          {d.method !== null && !offered && d.method !== "applepay" ? (
            <p className="alert alert-warning" role="alert" data-testid="method-not-here">
              {t("payments:pay.notHere", { country: d.countryName })}
            </p>
          ) : null}
          {offered && !d.usedUp ? (
            <div className="pay-now">
              <PayButton
                method={d.method!}
                label={
                  d.method === "sepa_directdebit"
                    ? t("payments:pay.directDebit")
                    : t("payments:pay.button", { amount: d.pkg.price, method: t(`methods.${d.method}`) })
                }
                code={d.code}
                intentKey={d.intentKey}
              />
              <p className="pay-secure">{t("payments:pay.secure")}</p>
            </div>
          ) : null}
          {/* The country and a code change what is offered, but a member paying sees the methods and the pay button first (a phone's first screen). */}
          <CountryPicker country={d.country} countries={d.countries} />
          <DiscountCodeForm value={d.typed} state={d.codeState} />
        </section>
      </div>
      <p>
        <Link to="/credits">{t("method.otherPackage")}</Link>
      </p>
    </ShopPage>
  );
}
