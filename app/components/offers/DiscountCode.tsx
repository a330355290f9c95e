/**
 * Discount code pieces of the shop: the form to type a code (a GET form: checking a code changes
 * nothing, and it works without JavaScript), and a price with the original struck through.
 */
import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";

export type CodeState =
  | { applied: { code: string; percentage: string }; error?: undefined; minimum?: undefined }
  | { applied?: undefined; error: string; minimum: string | null };

export function DiscountCodeForm({ value, state }: { value: string; state: CodeState | null }) {
  const { t } = useTranslation("offers");
  return (
    <Form method="get" className="discount-form" data-testid="discount-form">
      {/* The label names the input only: a button inside it would join the input's name. */}
      <div className="field">
        <label htmlFor="discount-code">{t("code.label")}</label>
        <span className="discount-form-row">
          <input
            id="discount-code"
            name="code"
            defaultValue={value}
            maxLength={40}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-invalid={state?.error ? true : undefined}
            aria-describedby={state ? "discount-state" : undefined}
          />
          <button type="submit" className="btn btn-outline">
            {t("code.apply")}
          </button>
        </span>
      </div>
      {state?.applied ? (
        <p id="discount-state" className="alert alert-success" role="status">
          {t("code.applied", state.applied)}
        </p>
      ) : state?.error ? (
        <p id="discount-state" className="alert alert-danger" role="alert">
          {t(`codeErrors.${state.error}`, { amount: state.minimum })}
        </p>
      ) : null}
    </Form>
  );
}

/** The active discount's line above the packages. */
export function ActiveDiscountNote({ code, percentage }: { code: string; percentage: string }) {
  const { t } = useTranslation("offers");
  return (
    <p className="alert alert-success discount-note" data-testid="active-discount">
      {t("code.active", { code, percentage })}
    </p>
  );
}
