import { ACCOUNT_PROBLEMS, type AccountView } from "~/lib/payments/account";
import { Facts } from "./AdminTable";

/**
 * Which Mollie account a brand's money goes to (decision 206): the company, its account and the
 * secret holding its key, whether that key is set (never the key), the mode and the brand's profile.
 */
export function PaymentAccount({ account: a }: { account: AccountView }) {
  const facts: [string, React.ReactNode][] = [
    ["Company", a.company],
    ["Mollie account", a.account ?? "none"],
    ["Secret", a.secret ? <code key="s">{a.secret}</code> : "–"],
    [
      "Key set",
      <span key="k" className={a.keyPresent ? "a-badge a-badge-ok" : "a-badge a-badge-red"}>
        {a.keyPresent ? (a.organization ? "yes (organisation access token)" : "yes") : "no"}
      </span>,
    ],
    ["Mode", a.mode ?? "–"],
    ["Profile", a.profileId ? <code key="p">{a.profileId}</code> : "the key's own"],
  ];
  return (
    <section className={a.problem ? "a-card a-alert" : "a-card"} aria-labelledby="payment-account">
      <h2 id="payment-account">Payment account</h2>
      {a.problem ? (
        <p className="a-error" role="alert">
          {ACCOUNT_PROBLEMS[a.problem]}
        </p>
      ) : null}
      <Facts items={facts} />
      <p className="a-muted">
        Each company takes its money in its own Mollie organisation: payments, refunds, customers and mandates of this
        brand use only this account's key.
      </p>
    </section>
  );
}
