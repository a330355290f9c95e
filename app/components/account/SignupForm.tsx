import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form, Link, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { signupSchema, TRACKING_KEYS, type Tracking } from "~/models/account-forms";
import type { Gender, Seeking } from "~/models/signup-rules";
import { Errors, Field } from "./Field";
import { WhoFields } from "./WhoFields";

export type SignupReply = SubmissionResult<string[]> & { pendingDeletion?: string; notice?: string };


/**
 * The sign-up form (SPEC "Signup form": email, name, date_of_birth, signup_message, password), used
 * by /signup and by the sign-up modal. Tracking data from the query rides along in hidden fields.
 */
export function SignupForm({
  minAge, tracking, who, lastResult, fetcher, profileId, idPrefix = "signup",
}: {
  minAge: number;
  tracking: Tracking;
  who: { gender: Gender; seeking: Seeking; fixed: boolean };
  lastResult?: SignupReply;
  fetcher?: ReturnType<typeof useFetcher>;
  profileId?: string;
  idPrefix?: string;
}) {
  const { t } = useTranslation("account");
  const navigation = useNavigation();
  const schema = useMemo(() => signupSchema(minAge), [minAge]);
  const [form, fields] = useForm({
    id: idPrefix,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const busy = fetcher ? fetcher.state !== "idle" : navigation.state === "submitting";
  const FormTag = fetcher ? fetcher.Form : Form;
  const vars = { minAge };
  const query = new URLSearchParams(Object.entries(tracking).filter((e): e is [string, string] => !!e[1])).toString();
  return (
    <FormTag method="post" action={`/signup${query ? `?${query}` : ""}`} className="form-card signup-form" {...getFormProps(form)}>
      {TRACKING_KEYS.map((k) => (tracking[k] ? <input key={k} type="hidden" name={k} value={tracking[k]!} /> : null))}
      {profileId ? <input type="hidden" name="profile" value={profileId} /> : null}
      <ErrorSummary id={form.errorId} lastResult={lastResult} vars={vars} />
      {lastResult?.notice ? <p className="alert alert-success" role="status">{t(lastResult.notice)}</p> : null}
      <WhoFields
        labels={t("who", { returnObjects: true }) as unknown as Parameters<typeof WhoFields>[0]["labels"]}
        who={who}
        idPrefix={idPrefix}
        values={{ gender: fields.gender.initialValue as string | undefined, seeking: fields.seeking.initialValue as string | undefined }}
      />
      <Field field={fields.email} label={t("signup.email")} type="email" autoComplete="email" />
      {lastResult?.pendingDeletion ? <PendingDeletion email={lastResult.pendingDeletion} /> : null}
      <Field field={fields.name} label={t("signup.name")} autoComplete="username" hint={t("signup.nameHint")} />
      <Field field={fields.date_of_birth} label={t("signup.dateOfBirth", vars)} type="date" autoComplete="bday" vars={vars} />
      <div className="field">
        <label htmlFor={fields.signup_message.id}>{t("signup.message")}</label>
        <textarea
          id={fields.signup_message.id}
          name={fields.signup_message.name}
          defaultValue={fields.signup_message.initialValue}
          rows={3}
          maxLength={1000}
          placeholder={t("signup.messagePlaceholder")}
        />
        <Errors errors={fields.signup_message.errors} />
      </div>
      <Field field={fields.password} label={t("signup.password")} type="password" autoComplete="new-password" hint={t("signup.passwordHint")} />
      {/* Honeypot: hidden from people and assistive technology; bots fill it in. */}
      <div className="hp-field" aria-hidden="true">
        <label htmlFor={`${idPrefix}-website`}>Website</label>
        <input id={`${idPrefix}-website`} name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
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

/**
 * Every error of a failed sign-up at the top of the form, focused, so neither a screen reader nor a
 * phone lands below it; the fields keep their values (never the password) and their own messages.
 */
function ErrorSummary({ id, lastResult, vars }: { id: string; lastResult?: SignupReply; vars: Record<string, unknown> }) {
  const ref = useRef<HTMLDivElement>(null);
  const errors = lastResult?.error ? Object.values(lastResult.error).flat().filter((e): e is string => !!e) : [];
  const key = errors.join("|");
  useEffect(() => {
    if (key) ref.current?.focus();
  }, [key, lastResult]);
  if (!errors.length) return null;
  return (
    <div ref={ref} tabIndex={-1} className="signup-errors" data-testid="signup-errors">
      <Errors form id={id} errors={[...new Set(errors)]} vars={vars} />
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
