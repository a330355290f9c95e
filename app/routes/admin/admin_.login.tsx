/** The operators' login (decision 167): the "operator" remix-auth strategy, its own session cookie; never a member's. */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { readForm } from "~/lib/body.server";
import { safeRedirect } from "~/lib/request.server";
import { isAdminPath } from "~/lib/admin-path";
import { isDeployed } from "~/lib/env";
import { authenticate } from "~/models/auth.server";
import { deviceCookieFor, getOperator, startOperatorSession } from "~/models/admin/operators.server";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ name: "robots", content: "noindex" }];

/** Where to go after logging in: a console page only. */
const target = (to: FormDataEntryValue | string | null) => {
  const path = safeRedirect(to, "/admin");
  return isAdminPath(path) ? path : "/admin";
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getOperator(request, context)) throw redirect(target(new URL(request.url).searchParams.get("redirectTo")));
  return { codeRequired: isDeployed(context.env), title: "Console login" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, context);
  const email = String(formData.get("email") ?? "").trim();
  if (!email || !formData.get("password")) return { error: "Enter your e-mail address and password." };
  const result = await authenticate("operator", request, context, formData);
  if (!result.ok) {
    // One answer for a wrong address, password or code: it never tells that only the code was wrong.
    const error =
      result.reason === "blocked"
        ? `Too many incorrect attempts, account blocked for ${result.minutes} min.`
        : result.reason === "rate_limited"
          ? "Too many attempts. Please wait a minute and try again."
          : "E-mail address, password or authentication code is incorrect.";
    return { error };
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await startOperatorSession(request, context, result.operator.id));
  headers.append("Set-Cookie", await deviceCookieFor(request, context, result.operator.id));
  return redirect(target(formData.get("redirectTo")), { headers });
}

export default function AdminLogin() {
  const data = useActionData<typeof action>();
  const { codeRequired } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  return (
    <div className="a-main">
      <form method="post" className="a-card a-narrow">
        <h1>Console login</h1>
        {data?.error ? (
          <p className="a-error" role="alert">
            {data.error}
          </p>
        ) : null}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/admin"} />
        <label className="a-field">
          <span>E-mail</span>
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label className="a-field">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <label className="a-field">
          <span>Authentication code</span>
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required={codeRequired}
          />
        </label>
        <p className="a-muted">
          The six digits from your authenticator app{codeRequired ? "" : " (only if you enrolled one)"}.
        </p>
        <button type="submit" className="a-btn">
          Log in
        </button>
      </form>
    </div>
  );
}
