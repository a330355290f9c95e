import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { sandboxProvider } from "~/lib/payments/index.server";
import { SANDBOX_OUTCOMES, type SandboxOutcome } from "~/lib/payments/sandbox.server";
import { formatMoney } from "~/models/shop.server";
import paymentsStyles from "~/styles/payments.css";

/**
 * The sandbox's hosted checkout (development and tests only; 404 in production): the tester picks
 * what the bank answers, the sandbox calls the webhook like Mollie and sends the browser back.
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
  return {
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
  const form = await request.formData().catch(() => null);
  const outcome = form?.get("outcome");
  const id = params.id ?? "";
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
    context.ctx.waitUntil(new Promise((r) => setTimeout(r, SETTLE_LATER_MS)).then(() => sandbox.settle(id, "paid_later")));
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
        {p.method ? <p>{t("sandbox.method", { method: t(`providerMethods.${p.method}`, { defaultValue: p.method }) })}</p> : null}
        {open ? (
          <Form method="post" className="sandbox-outcomes">
            <p>{t("sandbox.choose")}</p>
            {(["paid", "paid_fail_recurring", "pending", "failed", "canceled", "expired"] as const).map((o) => (
              <button key={o} type="submit" name="outcome" value={o} className={o === "paid" ? "btn btn-primary btn-block" : "btn btn-outline btn-block"}>
                {t(`sandbox.outcomes.${o}`)}
              </button>
            ))}
          </Form>
        ) : p.status === "pending" ? (
          <Form method="post" className="sandbox-outcomes">
            <p>{t("sandbox.pending")}</p>
            <button type="submit" name="outcome" value="settle" className="btn btn-primary btn-block">{t("sandbox.settle")}</button>
          </Form>
        ) : (
          <p className="alert alert-info" role="status">{t("sandbox.done", { status: p.status })}</p>
        )}
        <p><a href={p.returnUrl}>{t("sandbox.back")}</a></p>
      </div>
    </div>
  );
}
