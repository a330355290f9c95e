import { paymentOrigin } from "~/models/brand.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { lastPaidOrder } from "~/models/shop.server";
import { intentKeyOf, newIntentKey } from "~/models/payments/checkout.server";
import { lastMandateOrder, ownPaymentWithHistory, paymentView } from "~/models/payments/views.server";
import { mandateMethodsFor, paymentCountryOf } from "~/models/payments/methods.server";
import { repeatOrder } from "~/models/payments/recurring.server";
import { paymentTarget } from "~/models/payments/common.server";
import { paymentTitleKey } from "~/models/payment-rules";
import { ShopPage, shopLinks } from "~/components/pages/Shop";
import { BankReason, CompletedState, PayButton, PendingState, paymentsHandle } from "~/components/payments/Payments";
import paymentsStyles from "~/styles/payments.css";
import { readForm } from "~/lib/body.server";

/**
 * Repeat order (premium only, docs/product/roles.md §6): the last package bought with a card, PayPal or direct
 * debit, again, as a recurring payment on its mandate: one click, no redirect. A failed recurring
 * card payment offers a retry or PayPal (docs/product/validation.md §8).
 */
export const handle = paymentsHandle;
export const links = () => [...shopLinks(), { rel: "stylesheet", href: paymentsStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { lng, t, brand, country } = await pageContext(request, context, "shop");
  // The repeat button's one-time token: this render's click charges once, however often it arrives (decision 115).
  const base = { title: t("repeat.title"), balance: member.credits, intentKey: newIntentKey() };
  if (!member.paidUser)
    return { ...base, premium: false as const, last: null, repeatable: null, payment: null, mandateMethods: "" };
  const paymentId = new URL(request.url).searchParams.get("payment");
  const [last, mandate, found, mandateMethods] = await Promise.all([
    lastPaidOrder(context, lng, member.id),
    lastMandateOrder(context, paymentTarget(brand), member.id),
    paymentId ? ownPaymentWithHistory(context, member.id, paymentId) : null,
    // Only the methods that can leave a mandate here and now are named (recurring PayPal depends on the merchant's account).
    mandateMethodsFor(context, paymentTarget(brand), paymentCountryOf(request, country), brand),
  ]);
  if (paymentId && !found) throw new Response("Not found", { status: 404 });
  const payment = found ? paymentView(lng, found.row) : null;
  return {
    ...base,
    title: t(paymentTitleKey(payment) ?? "repeat.title"),
    premium: true as const,
    last,
    repeatable: mandate ? paymentView(lng, mandate) : null,
    payment,
    mandateMethods: new Intl.ListFormat(lng, { type: "disjunction" }).format(
      mandateMethods.map((m) => t(`methods.${m}`)),
    ),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  if (!member.paidUser) throw new Response("Forbidden", { status: 403 });
  const { brand } = await pageContext(request, context, "shop");
  const form = await readForm(request, context);
  if (form?.get("intent") !== "repeat") throw new Response("Bad request", { status: 400 });
  const intentKey = intentKeyOf(form.get("intent_key"));
  if (!intentKey) return data({ error: "stale" as const }, { status: 400 });
  const result = await repeatOrder(context, {
    brand,
    userId: member.id,
    origin: paymentOrigin(brand, context.env, request),
    intentKey,
  });
  if (!result.ok) return { error: result.error };
  return redirect(`/credits/repeat-order?payment=${result.payment.id}`);
}

export default function RepeatOrder() {
  const d = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const { t } = useTranslation(["shop", "payments"]);
  if (!d.premium) {
    return (
      <ShopPage title={t("repeat.title")}>
        <p className="alert alert-warning" data-testid="premium-only">
          {t("repeat.premiumOnly")}
        </p>
        <Link to="/premium" className="btn btn-primary">
          {t("repeat.getPremium")}
        </Link>
      </ShopPage>
    );
  }
  const p = d.payment;
  if (p?.state === "completed") {
    return (
      <ShopPage title={t(paymentTitleKey(p)!)}>
        <CompletedState payment={p} balance={d.balance} firstPurchase={false} />
      </ShopPage>
    );
  }
  if (p?.state === "pending") {
    return (
      <ShopPage title={t(paymentTitleKey(p)!)}>
        <PendingState payment={p} />
      </ShopPage>
    );
  }
  const r = d.repeatable;
  const noMandate = d.mandateMethods
    ? t("payments:repeat.noMandate", { methods: d.mandateMethods })
    : t("payments:repeat.noMandateHere");
  return (
    <ShopPage title={t("repeat.title")} lead={t("repeat.lead")}>
      {p?.state === "failed" ? (
        <section className="card payment-state payment-failed" data-testid="repeat-failed">
          <span className="payment-state-icon" aria-hidden="true">
            !
          </span>
          <h2>{t("payments:state.failedTitle")}</h2>
          <p className="alert alert-warning" role="alert">
            {t("payments:repeat.failedCard")}
          </p>
          <BankReason payment={p} />
          <div className="payment-actions">
            <Form method="post">
              <input type="hidden" name="intent_key" value={d.intentKey} />
              <button type="submit" name="intent" value="repeat" className="btn btn-primary">
                {t("payments:repeat.retry")}
              </button>
            </Form>
            <PayButton
              method="paypal"
              primary={false}
              label={t("payments:repeat.paypal")}
              action={`/credits/${p.packageId}/paypal`}
              intentKey={d.intentKey}
            />
          </div>
          <Link to={`/credits/${p.packageId}`}>{t("payments:repeat.otherMethod")}</Link>
        </section>
      ) : null}
      {failure?.error ? (
        <p className="alert alert-warning" role="alert">
          {failure.error === "hold"
            ? t("payments:repeat.hold")
            : failure.error === "blocked"
              ? t("payments:repeat.directDebitBlocked")
              : failure.error === "stale" || failure.error === "provider"
                ? t("payments:pay.error")
                : noMandate}
        </p>
      ) : null}
      {r && p?.state !== "failed" ? (
        <section className="card repeat-card" data-testid="last-order">
          <h2>{t("repeat.last")}</h2>
          <p>{t("payments:repeat.with", { method: t(`methods.${r.method}`, { defaultValue: r.method }) })}</p>
          <Form method="post">
            <input type="hidden" name="intent_key" value={d.intentKey} />
            <button type="submit" name="intent" value="repeat" className="btn btn-primary btn-lg">
              {t("payments:repeat.button", { credits: r.credits, amount: r.amount })}
            </button>
          </Form>
        </section>
      ) : null}
      {!r && d.last ? (
        <section className="card repeat-card" data-testid="last-order">
          <h2>{t("repeat.last")}</h2>
          <p>{t("repeat.lastOrder", { count: d.last.credits, amount: d.last.amount, date: d.last.date })}</p>
          <p>{noMandate}</p>
          <Link to={`/credits/${d.last.packageId}`} className="btn btn-primary">
            {t("repeat.toCredits")}
          </Link>
        </section>
      ) : null}
      {!r && !d.last ? <p data-testid="no-order">{t("repeat.none")}</p> : null}
      <Link to="/credits" className="btn btn-outline">
        {t("repeat.toCredits")}
      </Link>
    </ShopPage>
  );
}
