/** The payment screens' building blocks: country picker, pay button with its loading state, payment states. */
import { useWalletMethods } from "./wallets";
import { Form, Link, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { PREMIUM_PHOTOS } from "~/lib/constants";
import { BANK_REASON_CODES, type PaymentView } from "~/models/payment-rules";

export const paymentsHandle = { i18n: ["common", "shop", "payments", "offers"] };

export function CountryPicker({
  country,
  countries,
}: {
  country: string;
  countries: { code: string; name: string }[];
}) {
  const { t } = useTranslation("payments");
  const name = countries.find((c) => c.code === country)?.name ?? country;
  return (
    <Form method="post" className="country-picker" data-testid="country-picker">
      <input type="hidden" name="intent" value="country" />
      <label htmlFor="payment-country">{t("country.label")}</label>
      <div className="country-picker-row">
        <select id="payment-country" name="country" defaultValue={country}>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn-outline btn-sm">
          {t("country.change")}
        </button>
      </div>
      <p className="country-picker-lead">{t("country.lead", { country: name })}</p>
    </Form>
  );
}

/** While the pay form posts and the browser heads to the provider: the "loading" state of docs/product/states.md §4. */
export function PayLoading({ method }: { method: string }) {
  const { t } = useTranslation(["payments", "shop"]);
  const navigation = useNavigation();
  if (navigation.state === "idle" || navigation.formData?.get("intent") !== "pay") return null;
  const chosen = String(navigation.formData.get("method") ?? method);
  return (
    <div className="pay-loading" role="status" aria-live="polite" data-testid="payment-loading">
      <div className="card pay-loading-card">
        <span className="spinner" aria-hidden="true" />
        <p className="pay-loading-title">{t("pay.loading", { method: t(`shop:methods.${chosen}`) })}</p>
        <p>{t("pay.loadingLead")}</p>
      </div>
    </div>
  );
}

/**
 * A one-click button that starts a payment with `method` (a real form post). `intentKey` is the page's
 * one-time token (a fresh one each render); with the method it names this click, so the same click
 * posted twice is charged once.
 */
export function PayButton({
  method,
  label,
  primary = true,
  action,
  code,
  intentKey,
}: {
  method: string;
  label: string;
  primary?: boolean;
  action?: string;
  code?: string | null;
  intentKey: string;
}) {
  return (
    <Form method="post" action={action} className="pay-form">
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="method" value={method} />
      <input type="hidden" name="intent_key" value={`${intentKey}.${method}`} />
      {code ? <input type="hidden" name="code" value={code} /> : null}
      <button type="submit" className={primary ? "btn btn-primary btn-lg btn-block" : "btn btn-outline btn-block"}>
        {label}
      </button>
    </Form>
  );
}

/** Refreshes the page's data every few seconds while a payment is pending (JavaScript only). */
function useRefreshWhilePending(pending: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [pending, revalidator]);
}

/** The page's own heading says what happened (paymentTitleKey in payment-rules.ts); the card does not repeat it. */
export function PendingState({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation("payments");
  useRefreshWhilePending(true);
  return (
    <section className="card payment-state payment-pending" data-testid="payment-pending" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p>{t("state.pendingText")}</p>
      <p className="payment-state-note">{t("state.pendingAuto")}</p>
      {/* Without JavaScript: reload the same page (a GET changes nothing). */}
      <Form method="get" replace>
        <input type="hidden" name="payment" value={payment.id} />
        <button type="submit" className="btn btn-outline">
          {t("state.checkAgain")}
        </button>
      </Form>
    </section>
  );
}

export function CompletedState({
  payment,
  balance,
  firstPurchase,
}: {
  payment: PaymentView;
  balance: number;
  firstPurchase: boolean;
}) {
  const { t } = useTranslation("payments");
  return (
    <section className="card payment-state payment-completed" data-testid="payment-completed" role="status">
      <span className="payment-state-icon" aria-hidden="true">
        ✓
      </span>
      <p>{t("state.completedText", { count: payment.credits })}</p>
      <p className="payment-balance" data-testid="new-balance">
        {t("state.balance", { count: balance })}
      </p>
      {firstPurchase ? <p className="alert alert-success">{t("state.premiumNow", { count: PREMIUM_PHOTOS })}</p> : null}
      <div className="payment-actions">
        <Link to="/members" className="btn btn-primary">
          {t("state.toMembers")}
        </Link>
        <Link to={`/transactions/${payment.id}`} className="btn btn-outline">
          {t("state.receipt")}
        </Link>
      </div>
    </section>
  );
}

/**
 * Why the bank refused a direct debit: a common SEPA code in the member's language, else the bank's
 * own words; the code itself for support (an empty account is not a closed one).
 */
export function BankReason({ payment }: { payment: PaymentView }) {
  const { t } = useTranslation("payments");
  const code = payment.bankReasonCode;
  if (!code) return null;
  const known = (BANK_REASON_CODES as readonly string[]).includes(code);
  const reason = known ? t(`bankReasons.${code}`) : (payment.bankReason ?? t("bankReasons.other"));
  return (
    <p className="bank-reason" data-testid="bank-reason">
      {t("bankReasons.label", { reason, code })}
    </p>
  );
}

/** failed / canceled / expired: what happened, then every other method as a one-click retry. */
export function FailedState({
  payment,
  methods,
  intentKey,
  children,
}: {
  payment: PaymentView;
  methods: string[];
  intentKey: string;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation(["payments", "shop"]);
  const reason = payment.status === "canceled" || payment.status === "expired" ? payment.status : "failed";
  const usable = useWalletMethods(methods);
  const others = usable.filter((m) => m !== payment.method);
  return (
    <section className="card payment-state payment-failed" data-testid="payment-failed">
      <span className="payment-state-icon" aria-hidden="true">
        !
      </span>
      <h2>{t("state.failedTitle")}</h2>
      <p className="alert alert-warning" role="alert">
        {t(`state.${reason}`)}
      </p>
      <BankReason payment={payment} />
      {children}
      {others.length > 0 ? (
        <>
          <h3>{t("state.retry")}</h3>
          <div className="retry-methods" data-testid="retry-methods">
            {others.slice(0, 6).map((m, i) => (
              <PayButton
                key={m}
                method={m}
                primary={i === 0}
                label={t(`shop:methods.${m}`)}
                action={`/credits/${payment.packageId}/${m}`}
                intentKey={intentKey}
              />
            ))}
          </div>
        </>
      ) : null}
      {usable.includes(payment.method) ? (
        <PayButton
          method={payment.method}
          primary={false}
          label={t("state.retrySame", { method: t(`shop:methods.${payment.method}`) })}
          action={`/credits/${payment.packageId}/${payment.method}`}
          intentKey={intentKey}
        />
      ) : null}
    </section>
  );
}
