/**
 * One member's account for support (support, admin; decision 177): status, brand, language, credits
 * with the ledger, payments, sessions, devices, notification settings, safety history, and the
 * actions. Each action is a plain form (no JavaScript), goes through the model that owns its rule,
 * is audited in the same batch, and redirects back with what happened (a reload posts nothing again).
 */
import { AdminTable, Facts, type Column } from "~/components/admin/AdminTable";
import { DecisionState } from "~/components/admin/DecisionState";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { money, when } from "~/components/admin/labels";
import {
  MAX_ADJUSTMENT,
  consoleAdjustCredits,
  consoleChangeEmail,
  consoleDeleteAccount,
  consoleEndSessions,
  consoleNotificationsOn,
  consoleResendActivation,
  consoleUnblockDirectDebit,
  consoleClearPaymentHold,
  memberAccount,
  type ActionResult,
} from "~/models/admin/members.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { auditReason } from "~/models/admin/audit.server";
import { guardAction, guardAnswer } from "~/models/admin/guard.server";
import { ConfirmStep } from "~/components/admin/Confirm";
import { Flash } from "~/components/admin/Flash";
import { ReasonField } from "~/components/admin/ReasonField";
import { linkOrigin } from "~/models/brand.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "members";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const account = await memberAccount(context.env, (params.id ?? "").slice(0, 100));
  if (!account) throw new Response("There is no member with this id.", { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return {
    m: account,
    done: done && done in DONE ? DONE[done as Intent] : null,
    now: Math.floor(Date.now() / 1000),
    title: `Member ${account.name ?? account.account.email}`,
  };
}

const reason = auditReason;
const intents = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("resend_activation"), reason }),
  z.object({ intent: z.literal("change_email"), email: z.string().trim().email().max(200), reason }),
  z.object({ intent: z.literal("end_sessions"), reason }),
  z.object({
    intent: z.literal("credits"),
    direction: z.enum(["grant", "take"]),
    amount: z.coerce.number().int().min(1).max(MAX_ADJUSTMENT),
    reason,
  }),
  z.object({ intent: z.literal("unblock_directdebit"), reason }),
  z.object({ intent: z.literal("clear_payment_hold"), reason }),
  z.object({ intent: z.literal("notifications_on"), reason }),
  z.object({ intent: z.literal("delete"), confirm: z.literal("yes"), reason }),
]);
type Intent = z.infer<typeof intents>["intent"] | "granted" | "taken";

const DONE: Record<Intent, string> = {
  resend_activation: "A new activation link was mailed to the member.",
  change_email:
    "The new address got a confirmation link; the current address was told, with a link to undo the change.",
  end_sessions: "Every session of the member ended; their open pages were disconnected.",
  credits: "Credits changed.",
  granted: "Credits granted.",
  taken: "Credits taken.",
  unblock_directdebit: "Direct debit is allowed again.",
  clear_payment_hold: "The payments hold is cleared: repeat orders and direct debit work again.",
  notifications_on: "Every notification is switched on again.",
  delete: "The account is deleted; the member was mailed a reactivation link.",
};

/** What a form with bad input gets told, per field (nothing is changed). */
function inputError(issues: z.ZodIssue[]): string {
  const field = String(issues[0]?.path[0] ?? "");
  if (field === "reason") return "Give a reason (3 to 500 characters): it goes into the audit log.";
  if (field === "email") return "Give a valid e-mail address.";
  if (field === "amount") return `Give a whole number of credits from 1 to ${MAX_ADJUSTMENT}.`;
  if (field === "confirm") return "Tick the box to confirm the deletion.";
  return "That action is not known.";
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = (params.id ?? "").slice(0, 100);
  const form = await readForm(request, context);
  const parsed = intents.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: inputError(parsed.error.issues) };
  const input = parsed.data;
  const env = context.env;
  // A grant and a deletion are confirmed with their impact and the code asked again; a big grant waits for a second admin.
  const guarded =
    input.intent === "credits" && input.direction === "grant"
      ? await guardAction(env, operator, form, {
          kind: "credits.grant",
          impact: `Grant ${input.amount.toLocaleString("en")} credits to member ${id}.`,
          size: input.amount,
          target: { type: "member", id },
          params: { amount: input.amount, reason: input.reason },
        })
      : input.intent === "delete"
        ? await guardAction(env, operator, form, {
            kind: "member.delete",
            impact: `Delete the account of member ${id}: they are logged out and mailed a reactivation link.`,
            target: { type: "member", id },
          })
        : null;
  const wait = guarded && guardAnswer(guarded);
  if (wait) return wait;
  const origin = (brand: Parameters<typeof linkOrigin>[0]) => linkOrigin(brand, env, request);
  let result: ActionResult;
  let done: Intent = input.intent;
  switch (input.intent) {
    case "resend_activation":
      result = await consoleResendActivation(env, operator, id, input.reason, origin);
      break;
    case "change_email":
      result = await consoleChangeEmail(env, operator, id, input.email, input.reason, origin);
      break;
    case "end_sessions":
      result = await consoleEndSessions(env, operator, id, input.reason);
      break;
    case "credits":
      done = input.direction === "grant" ? "granted" : "taken";
      result = await consoleAdjustCredits(
        env,
        operator,
        id,
        input.direction === "grant" ? input.amount : -input.amount,
        input.reason,
      );
      break;
    case "unblock_directdebit":
      result = await consoleUnblockDirectDebit(env, operator, id, input.reason);
      break;
    case "clear_payment_hold":
      result = await consoleClearPaymentHold(env, operator, id, input.reason);
      break;
    case "notifications_on":
      result = await consoleNotificationsOn(env, operator, id, input.reason);
      break;
    case "delete":
      result = await consoleDeleteAccount(env, operator, id, input.reason, origin);
      break;
  }
  if (!result.ok) return { error: result.error };
  return redirect(`/admin/members/${encodeURIComponent(id)}?done=${done}`);
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

const LEDGER_COLUMNS: Column<Data["m"]["ledger"][number]>[] = [
  { header: "When", cell: (l) => when(l.createdAt) },
  { header: "Reason", cell: (l) => l.reason },
  { header: "Change", num: true, cell: (l) => (l.delta > 0 ? `+${l.delta}` : l.delta) },
  { header: "Reference", cell: (l) => <code className="a-code">{l.refId ?? ""}</code> },
];

const PAYMENT_COLUMNS: Column<Data["m"]["payments"][number]>[] = [
  { header: "Created", cell: (p) => when(p.createdAt) },
  {
    header: "Payment",
    cell: (p) => (
      <span>
        <code className="a-code">{p.id}</code>
        {p.providerRef ? (
          <>
            <br />
            <code className="a-code">
              {p.provider}: {p.providerRef}
            </code>
          </>
        ) : null}
      </span>
    ),
  },
  {
    header: "Status",
    cell: (p) => <span className={`a-badge${p.status === "paid" ? " a-badge-ok" : ""}`}>{p.status}</span>,
  },
  { header: "Method", cell: (p) => p.method },
  { header: "Amount", num: true, cell: (p) => money(p.amountCents, p.currency) },
  { header: "Credits", num: true, cell: (p) => p.credits },
];

const DECISION_COLUMNS: Column<Data["m"]["decisions"][number]>[] = [
  { header: "When", cell: (d) => when(d.createdAt) },
  { header: "Decision", cell: (d) => <DecisionState d={d} /> },
  { header: "Rule · facts", cell: (d) => `${d.rule ? `${d.rule} · ` : ""}${d.facts}` },
];

const AUDIT_COLUMNS: Column<Data["m"]["audit"][number]>[] = [
  { header: "When", cell: ({ entry }) => when(entry.at) },
  { header: "Operator", cell: ({ operatorEmail }) => operatorEmail },
  { header: "Action", cell: ({ entry }) => <code className="a-code">{entry.action}</code> },
  { header: "Reason", cell: ({ entry }) => entry.reason },
];

export default function AdminMember() {
  const { m, done, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const a = m.account;
  const deleted = a.deletedAt !== null;
  const suspended = a.suspendedUntil !== null && a.suspendedUntil > now;
  const offTypes = m.notifications.filter((n) => !n.enabled);
  return (
    <>
      <p className="a-muted">
        <a href="/admin/members">← Members</a>
      </p>
      <div className="a-head">
        <h1>
          {m.name ?? "(no profile)"} <span className="a-muted">{a.email}</span>
        </h1>
        <div>
          {deleted ? <span className="a-badge a-badge-red">deleted {when(a.deletedAt!)}</span> : null}{" "}
          {suspended ? <span className="a-badge a-badge-red">suspended until {when(a.suspendedUntil!)}</span> : null}{" "}
          {a.status === "confirmed" ? (
            <span className="a-badge a-badge-ok">confirmed</span>
          ) : (
            <span className="a-badge">not confirmed</span>
          )}{" "}
          {a.paidUser ? <span className="a-badge">paying</span> : null}
        </div>
      </div>

      <Flash result={result} />
      {result && "confirm" in result && result.confirm ? (
        <ConfirmStep confirm={result.confirm} cancel={`/admin/members/${a.id}`} />
      ) : null}
      {done && !result ? (
        <p className="a-ok" role="status">
          {done}
        </p>
      ) : null}

      <div className="a-kpis">
        <div className="a-kpi">
          <span>Credits</span>
          <strong data-testid="credits">{a.credits.toLocaleString("en")}</strong>
        </div>
        <div className="a-kpi">
          <span>Brand</span>
          <strong>{m.brand.name}</strong>
        </div>
        <div className="a-kpi">
          <span>Language · country</span>
          <strong>
            {a.language} · {m.country ?? "–"}
          </strong>
        </div>
        <div className="a-kpi">
          <span>Joined · last seen</span>
          <strong className="a-kpi-small">
            {when(a.createdAt)}
            <br />
            {when(a.lastSeenAt)}
          </strong>
        </div>
      </div>

      <div className="a-grid2">
        <section className="a-card">
          <h2>Account</h2>
          <Facts
            items={[
              [
                "Member id",
                <code key="id" className="a-code">
                  {a.id}
                </code>,
              ],
              [
                "Profile",
                `${m.profileStatus ?? "none"}${m.city ? ` · ${m.city}` : ""}${a.invisible ? " · invisible" : ""}`,
              ],
              ["Direct debit", a.directdebitBlocked ? <span className="a-badge a-badge-red">blocked</span> : "allowed"],
              [
                "Payments hold",
                m.paymentHold ? (
                  <>
                    <span className="a-badge a-badge-red">on hold</span> since {when(m.paymentHold.createdAt)}:
                    chargeback of <a href={`/admin/payments/${m.paymentHold.paymentId}`}>{m.paymentHold.paymentId}</a>;
                    no repeat orders or direct debit
                  </>
                ) : (
                  "none"
                ),
              ],
              [
                "Pending address",
                m.pendingMail ? `${m.pendingMail.email} (until ${when(m.pendingMail.expiresAt)})` : "none",
              ],
              ["Sign-up source", [a.network, a.ref, a.sub1].filter(Boolean).join(" · ") || "direct"],
              deleted && ["Deletion", `${a.deleteReason}${a.deleteRemarks ? `: ${a.deleteRemarks}` : ""}`],
            ]}
          />
        </section>
        <section className="a-card">
          <h2>Notifications and devices</h2>
          <p className="a-muted">
            {offTypes.length === 0
              ? "Every notification is on."
              : offTypes.map((n) => `${n.type} off (${n.reason})`).join(" · ")}
          </p>
          <p className="a-muted">
            Push devices:{" "}
            {m.devices.length ? m.devices.map((d) => `${d.host} (${when(d.createdAt)})`).join(" · ") : "none"}
          </p>
          <h2>Sessions</h2>
          {m.sessions.length ? (
            <ul className="a-muted">
              {m.sessions.map((s, i) => (
                <li key={i}>
                  {when(s.createdAt)} – {when(s.expiresAt)} · {s.userAgent.slice(0, 80) || "unknown browser"}
                </li>
              ))}
            </ul>
          ) : (
            <p className="a-muted">No live session.</p>
          )}
        </section>
      </div>

      <h2>Actions</h2>
      {deleted ? <p className="a-muted">The account is deleted: it waits for its reactivation or the purge.</p> : null}
      <div className="a-actions">
        <form method="post">
          <h3>Grant or take credits</h3>
          <input type="hidden" name="intent" value="credits" />
          <label className="a-field">
            <span>Credits</span>
            <input name="amount" type="number" min={1} max={MAX_ADJUSTMENT} step={1} required inputMode="numeric" />
          </label>
          <ReasonField />
          <div className="a-btn-row">
            <button type="submit" name="direction" value="grant" className="a-btn" disabled={deleted}>
              Grant
            </button>
            <button type="submit" name="direction" value="take" className="a-btn a-btn-quiet" disabled={deleted}>
              Take
            </button>
          </div>
        </form>
        <form method="post">
          <h3>Change the e-mail address</h3>
          <input type="hidden" name="intent" value="change_email" />
          <label className="a-field">
            <span>New address</span>
            <input name="email" type="email" required maxLength={200} />
          </label>
          <ReasonField />
          <p className="a-muted">The new address gets a confirmation link; the current one is told and can undo it.</p>
          <button type="submit" className="a-btn a-btn-quiet" disabled={deleted}>
            Send the confirmation
          </button>
        </form>
        <form method="post">
          <h3>End all sessions</h3>
          <input type="hidden" name="intent" value="end_sessions" />
          <p className="a-muted">
            Logs the member out everywhere ({m.sessions.length} live) and disconnects open pages.
          </p>
          <ReasonField />
          <button type="submit" className="a-btn a-btn-quiet">
            End sessions
          </button>
        </form>
        {a.status !== "confirmed" ? (
          <form method="post">
            <h3>Resend the activation mail</h3>
            <input type="hidden" name="intent" value="resend_activation" />
            <ReasonField />
            <button type="submit" className="a-btn a-btn-quiet" disabled={deleted}>
              Resend
            </button>
          </form>
        ) : null}
        {a.directdebitBlocked ? (
          <form method="post">
            <h3>Unblock direct debit</h3>
            <input type="hidden" name="intent" value="unblock_directdebit" />
            <ReasonField />
            <button type="submit" className="a-btn a-btn-quiet" disabled={deleted}>
              Unblock
            </button>
          </form>
        ) : null}
        {m.paymentHold ? (
          <form method="post">
            <h3>Clear the payments hold</h3>
            <p className="a-muted">Repeat orders and direct debit work again for this member.</p>
            <input type="hidden" name="intent" value="clear_payment_hold" />
            <ReasonField />
            <button type="submit" className="a-btn a-btn-quiet" disabled={deleted}>
              Clear the hold
            </button>
          </form>
        ) : null}
        {offTypes.length ? (
          <form method="post">
            <h3>Switch notifications back on</h3>
            <input type="hidden" name="intent" value="notifications_on" />
            <p className="a-muted">Also lifts a block after a bounce or a complaint.</p>
            <ReasonField />
            <button type="submit" className="a-btn a-btn-quiet" disabled={deleted}>
              Switch all on
            </button>
          </form>
        ) : null}
        {!deleted ? (
          <form method="post" className="a-danger">
            <h3>Delete the account</h3>
            <input type="hidden" name="intent" value="delete" />
            <p className="a-muted">As if the member deleted it: hidden at once, a reactivation link is mailed.</p>
            <ReasonField />
            <label className="a-check">
              <input type="checkbox" name="confirm" value="yes" required /> Yes, delete this account
            </label>
            <button type="submit" className="a-btn">
              Delete
            </button>
          </form>
        ) : null}
      </div>

      <h2>Credits ledger</h2>
      <p className="a-muted">
        {m.ledgerCount} entries; their sum is {m.ledgerSum.toLocaleString("en")}
        {m.ledgerSum === a.credits ? (
          <>
            {" "}
            <span className="a-badge a-badge-ok">explains the balance</span>
          </>
        ) : (
          <>
            {" "}
            <span className="a-badge a-badge-red">differs from the balance {a.credits}</span>
          </>
        )}
        {m.ledgerCount > m.ledger.length ? ` · newest ${m.ledger.length} shown` : ""}
      </p>
      <AdminTable columns={LEDGER_COLUMNS} rows={m.ledger} rowKey={(l) => l.id} empty="No ledger entries." />

      <h2>Payments</h2>
      <AdminTable columns={PAYMENT_COLUMNS} rows={m.payments} rowKey={(p) => p.id} empty="No payments." />
      {m.refunds.length ? (
        <p className="a-muted">
          Refunds:{" "}
          {m.refunds
            .map((r) => `${money(r.amountCents, r.currency)} (${r.credits} credits, ${r.status}, ${when(r.createdAt)})`)
            .join(" · ")}
        </p>
      ) : null}

      <h2>Safety history</h2>
      {m.openCases.length ? (
        <p>
          Open cases:{" "}
          {m.openCases.map((c) => (
            <a key={c.id} href={`/admin/reports/${c.id}`}>
              {c.targetType} ({when(c.openedAt)}){" "}
            </a>
          ))}
        </p>
      ) : null}
      <AdminTable columns={DECISION_COLUMNS} rows={m.decisions} rowKey={(d) => d.id} empty="No moderation decisions." />

      <h2>Console history</h2>
      <AdminTable
        columns={AUDIT_COLUMNS}
        rows={m.audit}
        rowKey={({ entry }) => entry.id}
        empty="No operator has acted on this account."
      />
    </>
  );
}
