/**
 * What the console asks first of an operator it made or reset (decision 216): a new password instead
 * of the one-time one, and a TOTP key enrolled (scanned, then proven with a code). Nothing else in the
 * console opens before (requireOperator sends every page here).
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { readForm } from "~/lib/body.server";
import {
  OPERATOR_PASSWORD_MIN,
  completeSetup,
  getOperator,
  newTotpKey,
  setupPending,
  totpEnrolment,
  type OperatorArea,
  type SessionOperator,
} from "~/models/admin/operators.server";

/** The console part this page belongs to: every role passes through it. */
export const area: OperatorArea = "console";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ name: "robots", content: "noindex" }];

async function pendingOperator(request: Request, context: LoaderFunctionArgs["context"]): Promise<SessionOperator> {
  const operator = await getOperator(request, context);
  if (!operator) throw redirect("/admin/login?redirectTo=%2Fadmin%2Fsetup");
  if (!setupPending(operator)) throw redirect("/admin");
  return operator;
}

/** A fresh key per page view until one is proven; the QR code is server-rendered SVG (no script). */
async function enrolment(operator: SessionOperator, key = newTotpKey()) {
  if (!operator.mustEnrolTotp) return null;
  const { uri, secret } = totpEnrolment(key, operator.email);
  // The QR encoder is loaded by this page only, not when the Worker starts (decision 234).
  const { renderSVG } = await import("uqr");
  return { key, secret, qr: renderSVG(uri, { border: 2 }) };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await pendingOperator(request, context);
  return {
    email: operator.email,
    password: operator.mustChangePassword,
    totp: await enrolment(operator),
    title: "Set up your console account",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await pendingOperator(request, context);
  const form = await readForm(request, context);
  const field = (k: string) => String(form.get(k) ?? "").slice(0, 200);
  const password = field("password");
  const key = field("key");
  if (operator.mustChangePassword && password !== field("repeat"))
    return { error: "The two passwords differ.", totp: await enrolment(operator, key || undefined) };
  const result = await completeSetup(context.env, operator, { password, key, code: field("code") });
  if (!result.ok)
    return { error: result.error, totp: await enrolment(operator, /^[A-Za-z0-9+/]{27}=$/.test(key) ? key : undefined) };
  return redirect("/admin", { headers: { "Cache-Control": "no-store" } });
}

export default function AdminSetup() {
  const { email, password, totp: first } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const totp = result?.totp ?? first;
  return (
    <div className="a-main">
      <form method="post" className="a-card a-narrow">
        <h1>Set up your console account</h1>
        <p className="a-muted">
          {email}: before anything else in the console,{" "}
          {password && totp
            ? "choose your own password and enrol a second factor"
            : password
              ? "choose your own password"
              : "enrol a second factor"}
          .
        </p>
        {result?.error ? (
          <p className="a-error" role="alert">
            {result.error}
          </p>
        ) : null}
        {password ? (
          <>
            <label className="a-field">
              <span>New password (at least {OPERATOR_PASSWORD_MIN} characters)</span>
              <input
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={OPERATOR_PASSWORD_MIN}
                maxLength={200}
                required
              />
            </label>
            <label className="a-field">
              <span>The new password again</span>
              <input name="repeat" type="password" autoComplete="new-password" maxLength={200} required />
            </label>
          </>
        ) : null}
        {totp ? (
          <>
            <p>Scan this code with an authenticator app, or type the key into it.</p>
            <div
              className="a-qr"
              role="img"
              aria-label="QR code of the authenticator key"
              dangerouslySetInnerHTML={{ __html: totp.qr }}
            />
            <p>
              Key: <code className="a-key">{totp.secret}</code>
            </p>
            <input type="hidden" name="key" value={totp.key} />
            <label className="a-field">
              <span>The six digits the app shows now</span>
              <input
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
              />
            </label>
          </>
        ) : null}
        <button type="submit" className="a-btn">
          Save and open the console
        </button>
      </form>
    </div>
  );
}
