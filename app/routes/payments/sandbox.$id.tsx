import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { sandboxProvider } from "~/lib/payments/index.server";
import {
  SANDBOX_BANK_REASONS,
  SANDBOX_OUTCOMES,
  SANDBOX_REFUND_OUTCOMES,
  type SandboxOutcome,
  type SandboxRefundOutcome,
} from "~/lib/payments/sandbox.server";
import { formatMoney } from "~/models/shop.server";
import paymentsStyles from "~/styles/payments.css";
import { readForm } from "~/lib/body.server";

/**
 * The sandbox's hosted checkout (development and tests only; 404 in production): the tester picks
 * what the bank answers, the sandbox calls the webhook like Mollie and sends the browser back.
 * Once paid, the same page plays the bank afterwards: a refund arrives or fails, or a chargeback.
 */
export const handle = { layout: "empty", i18n: ["common", "payments"] };
export const links = () => [{ rel: "stylesheet", href: paymentsStyles }];

/** "Pending, paid later" settles by itself after this long (the page also offers to settle at once). */
const SETTLE_LATER_MS = 8000;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const sandbox = sandboxProvider(context);
  const { lng, t } = await pageContext(request, context, "payments");
  const p = await sandbox.getCheckout(params.id ?? "");
  if (!p) throw new Response("Not found", { status: 404 });
  const refunds = p.status === "paid" ? await sandbox.refundsOf(p.id) : [];
  return {
    refunds: refunds.map((r) => ({
      id: r.id,
      status: r.status,
      amount: formatMoney(lng, r.amount.cents, r.amount.currency),
    })),
    chargedBack:
      (p.chargebacks ?? []).some((c) => !c.reversedAt) ||
      ((p.amountChargedBack?.cents ?? 0) > 0 && !p.chargebacks?.length),
    reversed: (p.chargebacks ?? []).some((c) => c.reversedAt),
    timeoutNextRefund: !!p.timeoutNextRefund,
    nextRefundAnswer: p.nextRefundAnswer ?? null,
    bankReasons: p.method === "directdebit" ? Object.keys(SANDBOX_BANK_REASONS) : [],
    title: t("sandbox.title"),
    id: p.id,
    status: p.status,
    amount: formatMoney(lng, p.amount.cents, p.amount.currency),
    description: p.description,
    method: p.method,
    returnUrl: p.redirectUrl,
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const sandbox = sandboxProvider(context);
  const form = await readForm(request, context);
  const outcome = form?.get("outcome");
  const id = params.id ?? "";
  if (outcome === "reverse") {
    if (!(await sandbox.reverseChargeback(id))) throw new Response("Not found", { status: 404 });
    return redirect(`/sandbox/${id}`);
  }
  if (outcome === "refund_timeout") {
    if (!(await sandbox.timeoutNextRefund(id))) throw new Response("Not found", { status: 404 });
    return redirect(`/sandbox/${id}`);
  }
  if (outcome === "refund_409" || outcome === "refund_429") {
    if (!(await sandbox.answerNextRefund(id, outcome === "refund_409" ? 409 : 429)))
      throw new Response("Not found", { status: 404 });
    return redirect(`/sandbox/${id}`);
  }
  const bankCode = form?.get("bankReason");
  if (outcome === "bank_refusal") {
    if (typeof bankCode !== "string" || !(bankCode in SANDBOX_BANK_REASONS))
      throw new Response("Bad request", { status: 400 });
    const back = await sandbox.settle(id, { bankReasonCode: bankCode });
    if (!back) throw new Response("Not found", { status: 404 });
    return redirect(back);
  }
  if (outcome === "chargeback") {
    const back = await sandbox.chargeback(id);
    if (!back) throw new Response("Not found", { status: 404 });
    return redirect(`/sandbox/${id}`);
  }
  const refundOutcome = form?.get("refund");
  if (typeof refundOutcome === "string") {
    const refund = (await sandbox.refundsOf(id)).find((r) => r.id === form?.get("refundId"));
    if (!refund || !(SANDBOX_REFUND_OUTCOMES as readonly string[]).includes(refundOutcome))
      throw new Response("Bad request", { status: 400 });
    await sandbox.settleRefund(refund.id, refundOutcome as SandboxRefundOutcome);
    return redirect(`/sandbox/${id}`);
  }
  if (outcome === "settle") {
    const back = await sandbox.settle(id, "paid_later");
    if (!back) throw new Response("Not found", { status: 404 });
    return redirect(back);
  }
  if (typeof outcome !== "string" || !(SANDBOX_OUTCOMES as readonly string[]).includes(outcome)) {
    throw new Response("Bad request", { status: 400 });
  }
  const back = await sandbox.settle(id, outcome as SandboxOutcome);
  if (!back) throw new Response("Not found", { status: 404 });
  if (outcome === "pending") {
    context.ctx.waitUntil(
      new Promise((r) => setTimeout(r, SETTLE_LATER_MS)).then(() => sandbox.settle(id, "paid_later")),
    );
  }
  return redirect(back);
}

export default function SandboxCheckout() {
  const p = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  const open = p.status === "open";
  return (
    <div className="container sandbox" data-testid="sandbox">
      <div className="card sandbox-card">
        <p className="sandbox-flag">{t("sandbox.flag")}</p>
        <h1>{t("sandbox.title")}</h1>
        <p className="sandbox-amount">{p.amount}</p>
        <p className="sandbox-description">{p.description}</p>
        {p.method ? (
          <p>{t("sandbox.method", { method: t(`providerMethods.${p.method}`, { defaultValue: p.method }) })}</p>
        ) : null}
        {open ? (
          <Form method="post" className="sandbox-outcomes">
            <p>{t("sandbox.choose")}</p>
            {(
              [
                "paid",
                "paid_fail_recurring",
                "paid_timeout_recurring",
                "pending",
                "failed",
                "canceled",
                "expired",
              ] as const
            ).map((o) => (
              <button
                key={o}
                type="submit"
                name="outcome"
                value={o}
                className={o === "paid" ? "btn btn-primary btn-block" : "btn btn-outline btn-block"}
              >
                {t(`sandbox.outcomes.${o}`)}
              </button>
            ))}
          </Form>
        ) : p.status === "pending" ? (
          <Form method="post" className="sandbox-outcomes">
            <p>{t("sandbox.pending")}</p>
            <button type="submit" name="outcome" value="settle" className="btn btn-primary btn-block">
              {t("sandbox.settle")}
            </button>
          </Form>
        ) : (
          <p className="alert alert-info" role="status">
            {t("sandbox.done", { status: p.status })}
          </p>
        )}
        {p.status === "pending" && p.bankReasons.length > 0 ? (
          <Form method="post" className="sandbox-outcomes" data-testid="sandbox-bank-refusal">
            <input type="hidden" name="outcome" value="bank_refusal" />
            {p.bankReasons.map((code) => (
              <button key={code} type="submit" name="bankReason" value={code} className="btn btn-outline btn-block">
                {t("sandbox.bankRefusal", { code, reason: t(`bankReasons.${code}`) })}
              </button>
            ))}
          </Form>
        ) : null}
        {p.status === "paid" ? <AfterPayment /> : null}
        <p>
          <a href={p.returnUrl}>{t("sandbox.back")}</a>
        </p>
      </div>
    </div>
  );
}

/** The bank's side after a paid payment: each refund arrives or fails, or the payment is charged back. */
function AfterPayment() {
  const p = useLoaderData<typeof loader>();
  const { t } = useTranslation("payments");
  return (
    <section className="sandbox-after" data-testid="sandbox-after">
      <h2>{t("sandbox.after")}</h2>
      {p.refunds.map((r) => (
        <Form key={r.id} method="post" className="sandbox-outcomes" data-testid="sandbox-refund">
          <p>{t("sandbox.refundRow", { amount: r.amount, status: t(`refund.status.${r.status}`) })}</p>
          {["queued", "pending", "processing"].includes(r.status) ? (
            <>
              <input type="hidden" name="refundId" value={r.id} />
              <button type="submit" name="refund" value="refunded" className="btn btn-outline btn-block">
                {t("sandbox.refundSettle")}
              </button>
              <button type="submit" name="refund" value="failed" className="btn btn-outline btn-block">
                {t("sandbox.refundFail")}
              </button>
            </>
          ) : null}
        </Form>
      ))}
      {p.chargedBack ? (
        <Form method="post" className="sandbox-outcomes">
          <p className="alert alert-warning" role="status">
            {t("sandbox.chargedBack")}
          </p>
          <button type="submit" name="outcome" value="reverse" className="btn btn-outline btn-block">
            {t("sandbox.reverse")}
          </button>
        </Form>
      ) : (
        <Form method="post" className="sandbox-outcomes">
          {p.reversed ? (
            <p className="alert alert-info" role="status">
              {t("sandbox.reversed")}
            </p>
          ) : null}
          <button type="submit" name="outcome" value="chargeback" className="btn btn-outline btn-block">
            {t("sandbox.chargeback")}
          </button>
        </Form>
      )}
      <Form method="post" className="sandbox-outcomes">
        {p.timeoutNextRefund || p.nextRefundAnswer ? (
          <p className="alert alert-info" role="status">
            {p.nextRefundAnswer
              ? t("sandbox.refundAnswerOn", { status: p.nextRefundAnswer })
              : t("sandbox.refundTimeoutOn")}
          </p>
        ) : (
          <>
            <button type="submit" name="outcome" value="refund_timeout" className="btn btn-outline btn-block">
              {t("sandbox.refundTimeout")}
            </button>
            <button type="submit" name="outcome" value="refund_409" className="btn btn-outline btn-block">
              {t("sandbox.refund409")}
            </button>
            <button type="submit" name="outcome" value="refund_429" className="btn btn-outline btn-block">
              {t("sandbox.refund429")}
            </button>
          </>
        )}
      </Form>
    </section>
  );
}
