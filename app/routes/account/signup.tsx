import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { SignupReply } from "~/components/account/SignupForm";
import { ValidatedSignupForm } from "~/components/account/ValidatedSignupForm";
import { pageContext } from "~/lib/page.server";
import { signupSchema } from "~/models/account-forms";
import { requestReactivation } from "~/models/accounts/deletion.server";
import { requestSignup } from "~/models/accounts/signup.server";
import { withinRateLimit } from "~/models/accounts/login.server";
import { signupContext, visitorTracking } from "~/models/tracking.server";
import { closedSignupKeys, NICHE_WHO, signupAllowed } from "~/models/signup-rules";
import { linkOrigin, nicheOf } from "~/models/brand.server";
import { getMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getMember(request, context)) return redirect("/members");
  const { brand, t } = await pageContext(request, context, "account");
  const { state, tracking } = signupContext(request, brand.signups);
  return {
    title: t(state === "open" ? "signup.title" : closedSignupKeys(state).title),
    // Translated here: the closed title lives in the landing's namespace, which this page does not load.
    closed:
      state === "open" ? null : { title: t(closedSignupKeys(state).title), text: t(closedSignupKeys(state).text) },
    minAge: brand.minAge,
    brandName: brand.name,
    tracking,
    who: NICHE_WHO[nicheOf(brand)],
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand, lng, country } = await pageContext(request, context, "account");
  const formData = await readForm(request, context);
  const tracking = visitorTracking(request, formData);
  const origin = linkOrigin(brand, context.env, request);
  const submission = parseWithZod(formData, { schema: signupSchema(brand.minAge) });
  const reply = (o: Parameters<typeof submission.reply>[0] = {}, extra: Partial<SignupReply> = {}): SignupReply => ({
    ...submission.reply({ ...o, hideFields: ["password", "website"] }),
    ...extra,
  });
  if (formData.get("intent") === "reactivate") {
    // The same answer whether or not the address has an account to reactivate (decision 202).
    await requestReactivation(context.env, brand, String(formData.get("reactivate_email") ?? ""), origin);
    return reply({}, { notice: "signup.reactivationSent" });
  }
  const allowed = signupAllowed(brand.signups, tracking);
  if (allowed !== "open")
    return reply({ formErrors: [allowed === "invite_only" ? "signup.inviteOnly" : "signup.needsSource"] });
  if (submission.status !== "success") return reply();
  if (!(await withinRateLimit(context.env, request, "signup"))) return reply({ formErrors: ["errors.rateLimited"] });
  const v = submission.value;
  // A filled honeypot fails the schema above (max 0), so a bot never gets this far.
  await requestSignup(
    context.env,
    brand,
    {
      email: v.email,
      name: v.name,
      dateOfBirth: v.date_of_birth,
      password: v.password,
      signupMessage: v.signup_message,
      signupProfileId: v.profile,
      gender: v.gender,
      seeking: v.seeking,
      marketing: v.marketing === "on",
    },
    { tracking, language: lng, country, origin },
  );
  // One answer for a new and a known address (decision 224): the mail says which it was, to its owner only.
  return redirect("/signup/sent");
}

export default function Signup() {
  const { t } = useTranslation("account");
  const { minAge, tracking, brandName, who, closed } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  if (closed) {
    // Closed: the same one reason as the landing page says (no "free in under a minute" above it).
    return (
      <div className="container container-narrow account-page">
        <h1>{closed.title}</h1>
        <div className="card card-body" role="status">
          <p className="alert alert-info">{closed.text}</p>
          <p className="form-links">
            <Link to="/login">{t("signup.haveAccount")}</Link>
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="container container-narrow account-page">
      <h1>{t("signup.title")}</h1>
      <p className="lead">{t("signup.lead", { brand: brandName })}</p>
      <div className="card">
        <ValidatedSignupForm minAge={minAge} tracking={tracking} who={who} lastResult={lastResult} />
      </div>
    </div>
  );
}
