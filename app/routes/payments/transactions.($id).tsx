import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { formatMoney, getTransaction, listTransactions, type Transaction } from "~/models/shop.server";
import { ownPayment, receiptOf, type Receipt } from "~/models/payments/views.server";
import { refundQuote, refundsOf, requestRefund } from "~/models/payments/refunds.server";
import { ShopPage, shopLinks } from "~/components/pages/Shop";
import { paymentsHandle } from "~/components/payments/Payments";
import paymentsStyles from "~/styles/payments.css";
import { readForm } from "~/lib/body.server";

/**
 * /transactions: the member's payments; /transactions/{id}: one of their own (others' ids are a 404)
 * with a printable receipt and, within refund_days, a refund of the purchase's unused credits.
 */
export const handle = paymentsHandle;
export const links = () => [...shopLinks(), { rel: "stylesheet", href: paymentsStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [member, { lng, t, brand }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "shop"),
  ]);
  if (!params.id)
    return { title: t("transactions.title"), list: await listTransactions(context, lng, member.id), one: null };
  const [one, row] = await Promise.all([
    getTransaction(context, lng, member.id, params.id),
    ownPayment(context, member.id, params.id),
  ]);
  if (!one || !row) throw new Response("Not found", { status: 404 });
  const paid = row.status === "paid";
  const chargedBack = row.status === "charged_back";
  const [quote, refunds] = await Promise.all([
    paid ? refundQuote(context, brand, row) : null,
    refundsOf(context, row.id),
  ]);
  return {
    title: t("transactions.one", { id: one.id }),
    list: null,
    one,
    receipt: paid || chargedBack ? receiptOf(lng, brand, row) : null,
    chargeback: chargedBack
      ? { amount: formatMoney(lng, row.chargedBackCents ?? row.amountCents, row.currency) }
      : null,
    refundDays: brand.refundDays,
    quote: quote?.ok ? { credits: quote.credits, amount: formatMoney(lng, quote.amountCents, quote.currency) } : null,
    quoteReason: quote && !quote.ok ? quote.reason : null,
    refunds: refunds.map((r) => ({
      id: r.id,
      credits: r.credits,
      amount: formatMoney(lng, r.amount_cents, r.currency),
      status: r.status,
    })),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand } = await pageContext(request, context, "shop");
  const form = await readForm(request, context);
  if (!form || form.get("intent") !== "refund") throw new Response("Bad request", { status: 400 });
  const row = await ownPayment(context, member.id, params.id ?? "");
  if (!row) throw new Response("Not found", { status: 404 });
  const result = await requestRefund(context, brand, row);
  if (result.ok) return { refund: "done" as const };
  // Nothing was changed; the wallet or the provider could not be reached: try again later.
  return data({ refund: result.reason }, { status: result.reason === "provider" ? 503 : 200 });
}

/** A payment status in the page language (a chargeback's label lives in the payments namespace). */
function useStatusText() {
  const { t } = useTranslation(["shop", "payments"]);
  return (status: string) =>
    status === "charged_back" ? t("payments:chargeback.status") : t(`status.${status}`, { defaultValue: status });
}

function Detail({ tx }: { tx: Transaction }) {
  const { t } = useTranslation(["shop", "payments"]);
  const statusText = useStatusText();
  const rows: [string, string][] = [
    [t("payments:receipt.paymentId"), tx.id],
    [t("transactions.date"), tx.date],
    [t("payments:transactions.package"), t(`tiers.${tx.packageId}`, { defaultValue: tx.packageId })],
    [t("transactions.credits"), String(tx.credits)],
    [t("transactions.amount"), tx.amount],
    [t("transactions.method"), t(`methods.${tx.method}`, { defaultValue: tx.method })],
    [t("transactions.fee"), tx.fee],
    [t("transactions.status"), statusText(tx.status)],
  ];
  return (
    <dl className="card page-dl" data-testid="transaction">
      {rows.map(([label, value]) => (
        <div key={label} className="page-dl-row">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReceiptCard({ tx, receipt }: { tx: Transaction; receipt: Receipt }) {
  const { t } = useTranslation(["payments", "shop"]);
  const s = receipt.seller;
  return (
    <section className="card receipt" data-testid="receipt" aria-labelledby="receipt-title">
      <h2 id="receipt-title">{t("receipt.title")}</h2>
      <address className="receipt-seller">
        <strong>{s.name}</strong>
        <span>{receipt.brandName}</span>
        <span>{s.address}</span>
        <span>
          {s.city}, {s.country}
        </span>
        <span>
          {t("receipt.kvk")}: {s.kvk}
        </span>
        {s.vatNumber ? (
          <span>
            {t("receipt.vatNumber")}: {s.vatNumber}
          </span>
        ) : null}
      </address>
      <p>
        {t("receipt.paymentId")}: <strong>{tx.id}</strong>
        {receipt.paidAt ? ` · ${receipt.paidAt}` : ""}
      </p>
      <table className="receipt-lines">
        <tbody>
          <tr>
            <th scope="row">
              {t("shop:package.credits", { count: tx.credits })} (
              {t(`shop:tiers.${tx.packageId}`, { defaultValue: tx.packageId })})
            </th>
            <td>{receipt.total}</td>
          </tr>
          {receipt.original ? (
            <tr>
              <th scope="row">{t("receipt.discount", { amount: receipt.original })}</th>
              <td />
            </tr>
          ) : null}
          <tr>
            <th scope="row">{t("receipt.net")}</th>
            <td>{receipt.net}</td>
          </tr>
          <tr>
            <th scope="row">{t("receipt.vat", { rate: receipt.vatRate })}</th>
            <td>{receipt.vat}</td>
          </tr>
          <tr className="receipt-total">
            <th scope="row">{t("receipt.total")}</th>
            <td>{receipt.total}</td>
          </tr>
        </tbody>
      </table>
      <p className="no-print">
        {/* The browser's own print also works without JavaScript; this button only saves a step. */}
        <button type="button" className="btn btn-outline btn-sm" onClick={() => window.print()}>
          {t("receipt.print")}
        </button>
      </p>
    </section>
  );
}

function Refund() {
  const d = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const { t } = useTranslation(["payments", "shop"]);
  if (!d.one || !d.receipt) return null;
  return (
    <section className="card refund-card no-print" data-testid="refund">
      <h2>{t("refund.title")}</h2>
      <p>{t("refund.rule", { count: d.refundDays })}</p>
      {done?.refund ? (
        <p className={done.refund === "done" ? "alert alert-success" : "alert alert-warning"} role="status">
          {t(`refund.${done.refund}`, { count: d.refundDays })}
        </p>
      ) : null}
      {d.quote ? (
        <Form method="post">
          <p>{t("refund.offer", { count: d.quote.credits, amount: d.quote.amount })}</p>
          <button type="submit" name="intent" value="refund" className="btn btn-outline">
            {t("refund.button")}
          </button>
        </Form>
      ) : d.quoteReason && d.quoteReason !== "status" && !done?.refund ? (
        <p data-testid="refund-unavailable">{t(`refund.${d.quoteReason}`, { count: d.refundDays })}</p>
      ) : null}
      {d.refunds.length > 0 ? (
        <ul className="refund-list" data-testid="refunds">
          {d.refunds.map((r) => (
            <li key={r.id}>
              {t("refund.row", { count: r.credits, amount: r.amount, status: t(`refund.status.${r.status}`) })}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export default function Transactions() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation(["shop", "payments"]);
  const statusText = useStatusText();
  if (d.one) {
    return (
      <ShopPage title={t("transactions.one", { id: d.one.id })}>
        <Detail tx={d.one} />
        {d.chargeback ? (
          <p className="alert alert-warning" role="status" data-testid="chargeback">
            {t("payments:chargeback.notice", { amount: d.chargeback.amount })}
          </p>
        ) : null}
        {d.receipt ? (
          <ReceiptCard tx={d.one} receipt={d.receipt} />
        ) : (
          <p className="no-print">{t("payments:receipt.notPaid")}</p>
        )}
        <Refund />
        <p className="no-print">
          <Link to="/transactions">{t("transactions.all")}</Link>
        </p>
      </ShopPage>
    );
  }
  const list = d.list;
  return (
    <ShopPage title={t("transactions.title")}>
      {list && list.length > 0 ? (
        <div className="table-wrap">
          <table className="table tx-table" data-testid="transactions">
            <thead>
              <tr>
                <th scope="col">{t("transactions.date")}</th>
                <th scope="col">{t("payments:transactions.package")}</th>
                <th scope="col">{t("transactions.credits")}</th>
                <th scope="col">{t("transactions.amount")}</th>
                <th scope="col">{t("transactions.method")}</th>
                <th scope="col">{t("transactions.status")}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((tx) => (
                <tr key={tx.id}>
                  {/* data-label: a phone shows each row as a card, each value under its column's name. */}
                  <td data-label={t("transactions.date")}>
                    <Link to={`/transactions/${tx.id}`}>{tx.date}</Link>
                  </td>
                  <td data-label={t("payments:transactions.package")}>
                    {t(`tiers.${tx.packageId}`, { defaultValue: tx.packageId })}
                  </td>
                  <td data-label={t("transactions.credits")}>{tx.credits}</td>
                  <td data-label={t("transactions.amount")}>{tx.amount}</td>
                  <td data-label={t("transactions.method")}>
                    {t(`methods.${tx.method}`, { defaultValue: tx.method })}
                  </td>
                  <td data-label={t("transactions.status")}>{statusText(tx.status)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p data-testid="no-transactions">{t("transactions.none")}</p>
      )}
      <Link to="/credits" className="btn btn-primary">
        {t("transactions.toCredits")}
      </Link>
    </ShopPage>
  );
}
