/**
 * One payment (finance, admin): the provider's ids, what the provider's calls changed, the ledger rows
 * it caused, its refunds and chargeback, the console's actions on it; and the refund form (all or
 * part, through the payments model's refund; the member's rules unless overridden with a reason).
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { paragraph } from "~/lib/text";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { amountCentsSchema, markAlertDealt, paymentDetail } from "~/models/admin/payments.server";
import { intentKeyOf, newIntentKey } from "~/models/payments/checkout.server";
import { operatorRefund, refundQuote, unusedCreditsOf } from "~/models/payments/refunds.server";
import { receiptOf } from "~/models/payments/views.server";
import { refundTakesBack } from "~/models/payment-rules";
import { brandsById } from "~/models/brand.server";
import { when } from "~/components/admin/labels";
import { money, statusBadge } from "~/components/admin/money";
import { AdminTable, Facts, type Column, type Fact } from "~/components/admin/AdminTable";
import { ConfirmStep } from "~/components/admin/Confirm";
import { Flash } from "~/components/admin/Flash";
import { ReasonField } from "~/components/admin/ReasonField";
import { auditReason } from "~/models/admin/audit.server";
import { consoleBlockDirectDebit, consoleUnblockDirectDebit } from "~/models/admin/members.server";
import { guardAction, guardAnswer } from "~/models/admin/guard.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "payments";

async function load(context: LoaderFunctionArgs["context"], id: string) {
  const detail = await paymentDetail(context.env, id);
  if (!detail) throw new Response("No such payment.", { status: 404 });
  const brand = (await brandsById(context.env)).get(detail.row.brandId);
  if (!brand) throw new Response("The payment's brand is gone.", { status: 404 });
  return { detail, brand };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const { detail, brand } = await load(context, params.id ?? "");
  const row = detail.row;
  const [quote, unused] =
    row.status === "paid"
      ? await Promise.all([refundQuote(context, brand, row), unusedCreditsOf(context.env, row)])
      : [null, null];
  const receipt = row.paidAt ? receiptOf("en", brand, row) : null;
  const done = new URL(request.url).searchParams.get("refunded");
  const dealtNow = new URL(request.url).searchParams.get("dealt") === "1";
  const dd = new URL(request.url).searchParams.get("dd");
  return {
    ...detail,
    brand: { id: brand.id, name: brand.name, refundDays: brand.refundDays },
    vat: receipt ? { rate: receipt.vatRate, vat: receipt.vat, net: receipt.net } : null,
    quote: quote?.ok ? { credits: quote.credits, amountCents: quote.amountCents } : null,
    quoteReason: quote && !quote.ok ? quote.reason : null,
    unused,
    refundable: row.status === "paid" && !detail.refunds.some((r) => r.status !== "failed" && r.status !== "canceled"),
    // A fresh token per render: the refund's id, so a double-submitted form refunds once (decision 178).
    intentKey: newIntentKey(),
    done: done && detail.refunds.some((r) => r.id === done) ? done : null,
    dealtNow: dealtNow && row.providerAlertDealtAt !== null,
    ddChanged: dd === "blocked" || dd === "lifted" ? dd : null,
    // Who marked the provider alert dealt with (the operator of its audit row).
    dealtBy:
      row.providerAlertDealtBy === null
        ? null
        : (detail.audit.find((a) => a.entry.operatorId === row.providerAlertDealtBy)?.operatorEmail ??
          row.providerAlertDealtBy),
    title: `Payment ${row.id}`,
  };
}

const RefundForm = z
  .object({
    intent: z.literal("refund"),
    intent_key: z.string(),
    amount: amountCentsSchema,
    override: z.literal("on").optional(),
    reason: paragraph(z.string().max(500)).optional(),
  })
  .refine((f) => !f.override || (f.reason?.length ?? 0) >= 5, {
    path: ["reason"],
    message: "An override needs a reason (at least 5 characters).",
  });

const REFUSALS: Record<string, string> = {
  status: "Only a completed (paid) payment can be refunded.",
  days: "The member's refund period is over. Override with a reason to refund anyway.",
  used: "The member's rules allow no refund: the credits of this purchase are spent. Override with a reason to refund anyway.",
  exists: "This payment already has a refund.",
  amount:
    "That amount is more than the member's rules allow (or than the payment). Lower it, or override with a reason.",
  provider:
    "The payment provider refused the refund, or the member's wallet could not be reached; nothing was taken back. Try again later.",
};

/**
 * What a refund of `cents` takes back, as operatorRefund will (creditsForRefund): the refunded share
 * of the credits bought, but only those still unused; spent ones stay spent (the balance never goes
 * below zero). Empty when the wallet could not be read.
 */
function takesBackText(cents: number, row: { amountCents: number; credits: number }, unused: number | null) {
  if (unused === null) return "";
  const t = refundTakesBack(cents, row.amountCents, row.credits, unused);
  const taken = `, taking back ${t.taken} of the member's credits (the refunded share of the ${row.credits} bought is ${t.share}; ${unused} are unused now)`;
  return t.spent > 0
    ? `${taken}; the other ${t.spent} are already spent and are not taken back: the member keeps what they bought with them`
    : taken;
}

/** Finance marks the provider alert dealt with: what was done, and the alert's time as it was read. */
const AlertForm = z.object({
  intent: z.literal("alert_dealt"),
  alert_at: z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number),
  note: paragraph(z.string().trim().min(5).max(1000)),
});

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const { detail, brand } = await load(context, params.id ?? "");
  const form = await readForm(request, context);
  const fields = Object.fromEntries(form);
  if (fields.intent === "alert_dealt") {
    const alert = AlertForm.safeParse(fields);
    if (!alert.success)
      return {
        error:
          alert.error.issues[0]?.path[0] === "note"
            ? "Write what was done about it (5 to 1,000 characters)."
            : "The form was not complete; reload the page and try again.",
      };
    const marked = await markAlertDealt(context.env.DB, operator, detail.row.id, {
      alertAt: alert.data.alert_at,
      note: alert.data.note,
    });
    if (!marked.ok) return { error: marked.error };
    return redirect(`/admin/payments/${detail.row.id}?dealt=1`);
  }
  if (fields.intent === "directdebit_block" || fields.intent === "directdebit_unblock") {
    const why = auditReason.safeParse(fields.reason);
    if (!why.success) return { error: "Give a reason (3 to 500 characters): it goes into the audit log." };
    const change = fields.intent === "directdebit_block" ? consoleBlockDirectDebit : consoleUnblockDirectDebit;
    const changed = await change(context.env, operator, detail.row.userId, why.data);
    if (!changed.ok) return { error: changed.error };
    return redirect(
      `/admin/payments/${detail.row.id}?dd=${fields.intent === "directdebit_block" ? "blocked" : "lifted"}`,
    );
  }
  const parsed = RefundForm.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      error:
        issue?.path[0] === "amount"
          ? "Write the amount to refund, such as 5.00."
          : issue?.path[0] === "reason"
            ? issue.message
            : "The form was not complete; reload the page and try again.",
    };
  }
  const intentKey = intentKeyOf(parsed.data.intent_key);
  if (!intentKey) return { error: "The form is out of date; reload the page and try again." };
  // A refund is confirmed with its amount, the credits it takes back and the code asked again; above the
  // threshold a second admin approves it.
  const unused = detail.row.status === "paid" ? await unusedCreditsOf(context.env, detail.row) : null;
  const wait = guardAnswer(
    await guardAction(context.env, operator, form, {
      kind: "refund",
      impact: `Refund ${money(parsed.data.amount, detail.row.currency)} of payment ${detail.row.id} to the member${takesBackText(parsed.data.amount, detail.row, unused)}.`,
      size: parsed.data.amount,
      target: { type: "payment", id: detail.row.id },
      params: {
        amountCents: parsed.data.amount,
        override: parsed.data.override ? parsed.data.reason! : null,
        intentKey,
        reason: parsed.data.reason ?? "",
      },
    }),
  );
  if (wait) return wait;
  const result = await operatorRefund(context, brand, detail.row, operator, {
    amountCents: parsed.data.amount,
    override: parsed.data.override ? parsed.data.reason! : null,
    intentKey,
  });
  if (!result.ok) return { error: REFUSALS[result.reason] ?? "Nothing was refunded." };
  // After a post, a page of its own (a reload does not post again).
  return redirect(`/admin/payments/${detail.row.id}?refunded=${encodeURIComponent(result.refundId)}`);
}

type RefundRow = ReturnType<typeof useLoaderData<typeof loader>>["refunds"][number];
const REFUND_COLUMNS: Column<RefundRow>[] = [
  { header: "Time (UTC)", cell: (r) => when(r.createdAt) },
  { header: "Refund", cell: (r) => <code>{r.id}</code> },
  { header: "Provider id", cell: (r) => (r.providerRef ? <code>{r.providerRef}</code> : "–") },
  { header: "Status", cell: (r) => <span className={statusBadge(r.status)}>{r.status}</span> },
  { header: "Credits", num: true, cell: (r) => r.credits },
  { header: "Amount", num: true, cell: (r) => money(r.amountCents, r.currency) },
];

export default function AdminPayment() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const p = d.row;
  const m = (cents: number) => money(cents, p.currency);
  const facts: (Fact | false | null)[] = [
    [
      "Status",
      <span key="s" className={statusBadge(p.status)}>
        {p.status}
      </span>,
    ],
    ["Amount", m(p.amountCents)],
    p.originalAmountCents !== null && [
      "Before discount",
      `${m(p.originalAmountCents)} (code ${d.code?.code ?? "?"}, ${d.code?.percentage ?? "?"} %)`,
    ],
    ["Credits", String(p.credits)],
    ["Brand", d.brand.name],
    [
      "Member",
      d.member ? (
        <>
          {d.member.email} <code>{d.member.id}</code> · balance {d.member.credits} credits
          {d.member.deletedAt ? " · account deleted" : ""}
        </>
      ) : (
        p.userId
      ),
    ],
    ["Method", `${p.method} (${p.sequenceType})`],
    ["Payment country", p.paymentCountry ?? "–"],
    d.vat && ["VAT as on the receipt", `${d.vat.vat} (${d.vat.rate} %), net ${d.vat.net}`],
  ];
  const provider: (Fact | false | null)[] = [
    ["Provider", p.provider],
    ["Provider id", p.providerRef ? <code>{p.providerRef}</code> : "– (not created at the provider)"],
    [
      "Customer / mandate",
      p.customerId || p.mandateId ? <code>{`${p.customerId ?? "–"} / ${p.mandateId ?? "–"}`}</code> : "–",
    ],
    ["Click (idempotency key)", p.intentKey ? <code>{p.intentKey}</code> : "–"],
    ["Created", when(p.createdAt)],
    ["Paid", p.paidAt ? when(p.paidAt) : "–"],
    ["Last change from the provider", when(p.updatedAt)],
    [
      "Payer's card or bank country (VAT evidence)",
      p.providerCountry ? (
        <>
          {p.providerCountry}
          {p.paymentCountry && p.providerCountry !== p.paymentCountry ? (
            <>
              {" "}
              <span className="a-badge a-badge-red">differs from the payment country {p.paymentCountry}</span>
            </>
          ) : null}
        </>
      ) : (
        "–"
      ),
    ],
    [
      "Settled to us",
      p.settlementCents !== null && p.settlementCurrency ? money(p.settlementCents, p.settlementCurrency) : "–",
    ],
    [
      "In Mollie settlements",
      d.settled.length ? (
        <>
          {d.settled.map((l) => (
            <div key={l.providerRef}>
              {l.kind} in <code>{l.settlementId}</code> ({l.state})
            </div>
          ))}
        </>
      ) : (
        "– (not imported yet)"
      ),
    ],
    !!p.failureReason && ["Failure", `${p.failureReason}${p.bankReason ? ` — ${p.bankReason}` : ""}`],
  ];
  return (
    <>
      <p>
        <a href="/admin/payments">← Payments</a>
      </p>
      <h1>
        Payment <code>{p.id}</code>
      </h1>
      {p.providerAlert && p.providerAlertDealtAt === null ? (
        <form method="post" className="a-card a-alert">
          <p className="a-error" role="alert">
            Mollie and our record disagree ({p.providerAlertAt ? when(p.providerAlertAt) : ""}): {p.providerAlert}
          </p>
          <input type="hidden" name="intent" value="alert_dealt" />
          <input type="hidden" name="alert_at" value={p.providerAlertAt ?? ""} />
          <label className="a-field">
            <span>What was done about it (audited)</span>
            <textarea name="note" required minLength={5} maxLength={1000} rows={2} />
          </label>
          <button type="submit" className="a-btn">
            Mark dealt with
          </button>
        </form>
      ) : null}
      {p.providerAlert && p.providerAlertDealtAt !== null ? (
        <p className={d.dealtNow ? "a-ok" : "a-muted"} role="status">
          {`Mollie and our record disagreed (${p.providerAlertAt ? when(p.providerAlertAt) : ""}): ${p.providerAlert}. Dealt with ${when(p.providerAlertDealtAt)} by ${d.dealtBy ?? "?"}: ${p.providerAlertNote ?? ""}`}
        </p>
      ) : null}
      {d.done ? (
        <p className="a-ok" role="status">
          Refund <code>{d.done}</code> made. The provider pays it out; its status follows below.
        </p>
      ) : null}
      <Flash result={result} />
      {result && "confirm" in result && result.confirm ? (
        <ConfirmStep confirm={result.confirm} cancel={`/admin/payments/${p.id}`} />
      ) : null}
      <div className="a-grid">
        <div className="a-card">
          <h2>Payment</h2>
          <Facts rows items={facts} />
        </div>
        <div className="a-card">
          <h2>Provider record</h2>
          <Facts rows items={provider} />
          <p className="a-muted">
            Webhook calls are not stored one by one: each re-fetches the payment from the provider and applies what
            changed once — the status and times above, the refunds' statuses and the chargeback below.
          </p>
        </div>
      </div>
      {p.status === "charged_back" ? (
        <div className="a-card a-alert">
          <h2>Chargeback</h2>
          <p>
            The bank took back <strong>{m(p.chargedBackCents ?? p.amountCents)}</strong>. The purchase's credits were
            taken back as far as the balance allowed
            {p.chargebackUnrecoveredCredits
              ? `; ${p.chargebackUnrecoveredCredits} were already spent and could not be taken back`
              : ""}
            . If the bank reverses it, the payment is paid again and the credits taken come back.
          </p>
        </div>
      ) : null}
      <h2>Ledger rows of this payment</h2>
      <AdminTable
        columns={[
          { header: "Time (UTC)", cell: (l) => when(l.createdAt) },
          { header: "Reason", cell: (l) => l.reason },
          { header: "Credits", num: true, cell: (l) => (l.delta > 0 ? `+${l.delta}` : l.delta) },
        ]}
        rows={d.ledger}
        rowKey={(l) => l.id}
        empty="None (nothing was credited)."
      />
      {d.ledger.length > 1 ? (
        <p className="a-muted">
          Net: <strong>{d.ledger.reduce((s, l) => s + l.delta, 0)}</strong> credits
        </p>
      ) : null}
      <h2>Refunds</h2>
      <AdminTable columns={REFUND_COLUMNS} rows={d.refunds} rowKey={(r) => r.id} empty="No refunds." />
      {d.refundable ? (
        <form method="post" className="a-card">
          <h2>Refund</h2>
          <p className="a-muted">
            {d.quote
              ? `The member's rules (${d.brand.refundDays} days, unused credits) allow up to ${m(d.quote.amountCents)} for ${d.quote.credits} unused credits.`
              : d.quoteReason === "days"
                ? `The member's refund period (${d.brand.refundDays} days) is over: only an override refunds.`
                : "The credits of this purchase are spent: only an override refunds."}{" "}
            One refund per payment.
          </p>
          <p data-testid="refund-credits">
            {d.unused === null
              ? `Credits: the member's wallet could not be read just now; the confirmation names the credits taken back.`
              : `Credits: a refund takes back the refunded share of the ${p.credits} credits bought, rounded up, but only those still unused: ${d.unused} now. Refunding all ${m(p.amountCents)} takes back ${refundTakesBack(p.amountCents, p.amountCents, p.credits, d.unused).taken}${
                  d.unused < p.credits
                    ? `; the ${p.credits - d.unused} already spent are not taken back (the balance never goes below zero), so the member keeps what they bought with them`
                    : ""
                }. The confirmation names the credits for the amount you type.`}
          </p>
          <input type="hidden" name="intent" value="refund" />
          <input type="hidden" name="intent_key" value={d.intentKey} />
          <label className="a-field">
            <span>Amount to refund ({p.currency})</span>
            <input
              name="amount"
              inputMode="decimal"
              required
              pattern="\d{1,7}([.,]\d{1,2})?"
              defaultValue={d.quote ? (d.quote.amountCents / 100).toFixed(2) : ""}
            />
          </label>
          <label className="a-check">
            <input type="checkbox" name="override" />
            <span>Override the member's refund rules (audited)</span>
          </label>
          <label className="a-field">
            <span>Reason for the override</span>
            <textarea name="reason" rows={2} maxLength={500} />
          </label>
          <button type="submit" className="a-btn">
            Refund
          </button>
        </form>
      ) : null}
      {d.member && !d.member.deletedAt ? (
        <form method="post" className="a-card" id="directdebit">
          <h2>Direct debit for this member</h2>
          {d.ddChanged ? (
            <p className="a-ok" role="status">
              {d.ddChanged === "blocked"
                ? "Direct debit is blocked for this member."
                : "Direct debit is allowed again."}
            </p>
          ) : null}
          <p className="a-muted">
            {d.member.directdebitBlocked
              ? "Blocked: direct debit and bank payments that would set up a SEPA mandate are not offered to the member (the checkout and /directdebit say why), and their existing SEPA mandates are not charged."
              : "Allowed. Blocking it (after a reversed or fraudulent debit) stops offering direct debit and SEPA mandates to the member, with an explanation, and stops charging their existing SEPA mandates; card payments are not affected."}
          </p>
          <input
            type="hidden"
            name="intent"
            value={d.member.directdebitBlocked ? "directdebit_unblock" : "directdebit_block"}
          />
          <ReasonField />
          <button type="submit" className="a-btn a-btn-quiet">
            {d.member.directdebitBlocked ? "Lift the block" : "Block direct debit"}
          </button>
        </form>
      ) : null}
      {d.audit.length ? (
        <>
          <h2>Console actions</h2>
          <ul className="a-list">
            {d.audit.map(({ entry, operatorEmail }) => (
              <li key={entry.id}>
                {when(entry.at)} · {operatorEmail ?? entry.operatorId} · <code>{entry.action}</code>
                {entry.reason ? ` · “${entry.reason}”` : ""}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
