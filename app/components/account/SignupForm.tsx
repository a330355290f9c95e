import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode } from "react";
import { latestBirthDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n-react";
import {
  NAME_MAX,
  NAME_MIN,
  PASSWORD_MIN,
  SIGNUP_MESSAGE_MAX,
  TRACKING_KEYS,
  type Gender,
  type Seeking,
  type Tracking,
} from "~/models/signup-rules";
import { Errors } from "./Errors";
import { WhoFields, type WhoLabels } from "./WhoFields";

export type SignupReply = SubmissionResult<string[]> & { pendingDeletion?: string; notice?: string };
export type SignupFieldName = "email" | "name" | "date_of_birth" | "signup_message" | "password";

/** What the browser-side validation (useSignupValidation, conform + zod) adds to the form. */
export interface SignupValidation {
  formProps: { id: string; onSubmit?: (e: React.FormEvent<HTMLFormElement>) => void; noValidate?: boolean };
  formErrorId: string;
  formErrors?: string[];
  field: (name: SignupFieldName) => {
    props: InputHTMLAttributes<HTMLElement> & { key?: string; id: string; name: string };
    errorId: string;
    errors?: string[];
  };
}

/** Without the form libraries: ids, the values and the errors of the server's last answer. */
function serverOnly(idPrefix: string, lastResult: SignupReply | undefined): SignupValidation {
  return {
    formProps: { id: idPrefix },
    formErrorId: `${idPrefix}-form-error`,
    formErrors: lastResult?.error?.[""] ?? undefined,
    field: (name) => ({
      props: {
        id: `${idPrefix}-${name}`,
        name,
        defaultValue: String(lastResult?.initialValue?.[name] ?? "") || undefined,
      },
      errorId: `${idPrefix}-${name}-error`,
      errors: lastResult?.error?.[name] ?? undefined,
    }),
  };
}

/**
 * The sign-up form (docs/product/data.md §3, "Sign-up form": email, name, date_of_birth, signup_message, password) of
 * every sign-up: /signup, the sign-up modal and the landing page. It carries no form library, so
 * the landing page stays within its JavaScript budget; /signup and the modal add the browser-side
 * validation with `validation` (ValidatedSignupForm). Tracking data rides along in hidden fields.
 */
export function SignupForm({
  minAge,
  tracking,
  who,
  lastResult,
  fetcher,
  profileId,
  idPrefix = "signup",
  validation,
  className = "form-card signup-form",
}: {
  minAge: number;
  tracking: Tracking;
  /** The niche's answers to "I am … looking for …", preselected (or decided: the gay niche). */
  who: { gender: Gender; seeking: Seeking; fixed: boolean };
  lastResult?: SignupReply;
  fetcher?: ReturnType<typeof useFetcher>;
  profileId?: string;
  idPrefix?: string;
  validation?: SignupValidation;
  className?: string;
}) {
  const { t } = useTranslation("account");
  const navigation = useNavigation();
  // On the landing page and the landers the form posts through its own fetcher, so a failed sign-up
  // stays on that page with everything typed still in the fields (the password too); without
  // JavaScript it posts to /signup, which shows the errors above the form (never the password).
  const own = useFetcher<SignupReply>({ key: `${idPrefix}-fetcher` });
  if (!fetcher && !validation) {
    fetcher = own as ReturnType<typeof useFetcher>;
    lastResult = lastResult ?? own.data;
  }
  const v = validation ?? serverOnly(idPrefix, lastResult);
  const busy = fetcher ? fetcher.state !== "idle" : navigation.state === "submitting";
  const FormTag = fetcher ? fetcher.Form : Form;
  const vars = { minAge };
  const query = new URLSearchParams(Object.entries(tracking).filter((e): e is [string, string] => !!e[1])).toString();
  const field = (
    name: SignupFieldName,
    label: string,
    input: InputHTMLAttributes<HTMLInputElement>,
    hint?: string,
    extra?: ReactNode,
  ) => {
    const f = v.field(name);
    const { key, ...props } = f.props;
    return (
      <div className="field">
        <label htmlFor={f.props.id}>{label}</label>
        <input
          key={key}
          {...props}
          {...input}
          aria-invalid={f.errors?.length ? true : undefined}
          aria-describedby={f.errors?.length ? f.errorId : undefined}
        />
        {hint ? <small className="field-hint">{hint}</small> : null}
        <Errors id={f.errorId} errors={f.errors} vars={vars} />
        {extra}
      </div>
    );
  };
  const message = v.field("signup_message");
  return (
    <FormTag
      method="post"
      action={`/signup${query ? `?${query}` : ""}`}
      className={className}
      {...v.formProps}
      aria-invalid={v.formErrors?.length ? true : undefined}
      aria-describedby={v.formErrors?.length ? v.formErrorId : undefined}
    >
      {TRACKING_KEYS.map((k) => (tracking[k] ? <input key={k} type="hidden" name={k} value={tracking[k]!} /> : null))}
      {profileId ? <input type="hidden" name="profile" value={profileId} /> : null}
      <ErrorSummary
        id={v.formErrorId}
        errors={[...(v.formErrors ?? []), ...serverFieldErrors(lastResult)]}
        vars={vars}
      />
      {lastResult?.notice ? (
        <p className="alert alert-success" role="status">
          {t(lastResult.notice)}
        </p>
      ) : null}
      <WhoFields
        labels={t("who", { returnObjects: true }) as unknown as WhoLabels}
        who={who}
        idPrefix={idPrefix}
        values={{
          gender: lastResult?.initialValue?.gender as string | undefined,
          seeking: lastResult?.initialValue?.seeking as string | undefined,
        }}
      />
      {field(
        "email",
        t("signup.email"),
        { type: "email", autoComplete: "email", required: true, maxLength: 254 },
        undefined,
        lastResult?.pendingDeletion ? <PendingDeletion email={lastResult.pendingDeletion} /> : null,
      )}
      {field(
        "name",
        t("signup.name"),
        { type: "text", autoComplete: "username", required: true, minLength: NAME_MIN, maxLength: NAME_MAX },
        t("signup.nameHint"),
      )}
      {field("date_of_birth", t("signup.dateOfBirth", vars), {
        type: "date",
        autoComplete: "bday",
        required: true,
        min: "1900-01-01",
        max: latestBirthDate(minAge),
      })}
      <div className="field">
        <label htmlFor={message.props.id}>{t("signup.message")}</label>
        <textarea
          id={message.props.id}
          name={message.props.name}
          defaultValue={message.props.defaultValue}
          rows={3}
          maxLength={SIGNUP_MESSAGE_MAX}
          placeholder={t("signup.messagePlaceholder")}
        />
        <Errors errors={message.errors} />
      </div>
      {field(
        "password",
        t("signup.password"),
        { type: "password", autoComplete: "new-password", required: true, minLength: PASSWORD_MIN },
        t("signup.passwordHint"),
      )}
      {/* Honeypot: hidden from people and assistive technology; bots fill it in. */}
      <div className="hp-field" aria-hidden="true">
        <label htmlFor={`${idPrefix}-website`}>Website</label>
        <input id={`${idPrefix}-website`} name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {/* Marketing mails only by an active opt-in: never pre-ticked (decision 180). */}
      <label className="form-check">
        <input type="checkbox" name="marketing" />
        {t("signup.marketing")}
      </label>
      <p className="form-terms">{t("signup.terms", vars)}</p>
      <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={busy}>
        {busy ? t("signup.busy") : t("signup.submit")}
      </button>
      <p className="form-links">
        <Link to="/login">{t("signup.haveAccount")}</Link>
      </p>
    </FormTag>
  );
}

/** The field errors of the server's last answer (the form's own errors come through validation). */
function serverFieldErrors(lastResult: SignupReply | undefined): string[] {
  return Object.entries(lastResult?.error ?? {}).flatMap(([name, errors]) => (name && errors ? errors : []));
}

/**
 * Every error of a failed sign-up at the top of the form, focused, so neither a screen reader nor a
 * phone lands below it; the fields keep their values (never the password) and their own messages.
 */
function ErrorSummary({ id, errors, vars }: { id: string; errors: string[]; vars: Record<string, unknown> }) {
  const ref = useRef<HTMLDivElement>(null);
  const unique = [...new Set(errors)];
  const key = unique.join("|");
  useEffect(() => {
    if (key) ref.current?.focus();
  }, [key]);
  if (!unique.length) return null;
  return (
    <div ref={ref} tabIndex={-1} className="signup-errors" data-testid="signup-errors">
      <Errors form id={id} errors={unique} vars={vars} />
    </div>
  );
}

/** 'An account with this e-mail address already exists' for an account being deleted: offer reactivation. */
function PendingDeletion({ email }: { email: string }) {
  const { t } = useTranslation("account");
  return (
    <div className="alert alert-warning" role="alert">
      <p>{t("signup.pendingDeletion")}</p>
      <button type="submit" name="intent" value="reactivate" className="btn btn-outline btn-sm" formNoValidate>
        {t("signup.sendReactivation")}
      </button>
      <input type="hidden" name="reactivate_email" value={email} />
    </div>
  );
}
