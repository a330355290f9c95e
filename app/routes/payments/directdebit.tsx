import { paymentOrigin } from "~/models/brand.server";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type AppLoadContext,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Errors, Field } from "~/components/account/Field";
import type { Language } from "~/lib/constants";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { CODE_LENGTH, IBAN_EXAMPLES, codeSchema, directDebitSchema } from "~/models/directdebit-rules";
import {
  cancelRequest,
  directDebitPage,
  getPackageRow,
  payByMandate,
  resendCode,
  startDirectDebit,
  startFirstPayment,
  verifyCode,
  type PackageRow,
  type StartResult,
  type VerifyResult,
} from "~/models/directdebit.server";
import type { AppliedCode } from "~/models/discounts.server";
import { directDebitFirstMethod, paymentCountryOf } from "~/models/payments/methods.server";
import { intentKeyOf, newIntentKey } from "~/models/payments/checkout.server";
import { paymentTarget } from "~/models/payments/common.server";
import { requireMember } from "~/models/session.server";
import { formatMoney } from "~/models/shop.server";
import ddStyles from "~/styles/directdebit.css";
import { readForm } from "~/lib/body.server";

/**
 * /directdebit?package={id}: SEPA direct debit of a package. Where Mollie approved the brand's own form:
 * the form (docs/product/data.md §3), then the code sent by SMS, then the provider's mandate and payment
 * (pending until the bank collects it). Otherwise the package is paid once with the member's bank
 * (iDEAL, Bancontact, EPS), which leaves a verified direct debit mandate for later orders (decision 208).
 * Which step shows follows from the member's unfinished request, so every step is a plain form post.
 */
export const handle = { i18n: ["common", "shop", "offers", "directdebit"] };
export const links = () => [{ rel: "stylesheet", href: ddStyles }];

async function setup(request: Request, context: AppLoadContext) {
  const member = await requireMember(request, context);
  const ctx = await pageContext(request, context, "directdebit");
  return { member, ...ctx, paymentCountry: paymentCountryOf(request, ctx.country) };
}

/** A package at what this member pays by direct debit; with their active discount, `was` is the price struck through. */
const packageView = (lng: Language, p: PackageRow & { discount: AppliedCode | null; amountCents?: number }) => ({
  id: p.id,
  tier: p.tier,
  credits: p.credits,
  price: formatMoney(lng, p.amountCents ?? p.discount?.finalCents ?? p.price_cents, p.currency),
  was: p.discount ? formatMoney(lng, p.price_cents, p.currency) : null,
  offer: p.discount ? { code: p.discount.code, percentage: p.discount.percentage } : null,
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { member, brand, lng, t, paymentCountry } = await setup(request, context);
  const packageId = new URL(request.url).searchParams.get("package");
  const page = await directDebitPage(context.env.DB, brand, member, packageId, paymentCountry);
  const step = !brand.sepaIbanForm
    ? page.pkg
      ? "bank"
      : "choose"
    : page.request
      ? page.request.status === "verified"
        ? "verified"
        : "code"
      : page.pkg
        ? "form"
        : "choose";
  // Without the approved form: the bank that sets the mandate up (its name as the provider lists it).
  const bank =
    step === "bank" && page.pkg && page.eligibility.ok
      ? await directDebitFirstMethod(context, paymentTarget(brand), paymentCountry, {
          cents: page.pkg.amountCents,
          currency: page.pkg.currency,
        })
      : null;
  return {
    bank: bank ? { method: bank.method, name: BANK_NAMES[bank.providerMethod] ?? bank.providerMethod } : null,
    intentKey: newIntentKey(),
    title: t("title"),
    step,
    packages: page.packages.map((p) => packageView(lng, p)),
    pkg: page.pkg ? packageView(lng, page.pkg) : null,
    refusal: page.eligibility.ok ? null : page.eligibility.reason,
    request: page.request,
    vars: {
      country: new Intl.DisplayNames([lng], { type: "region" }).of(paymentCountry) ?? paymentCountry,
      limit: formatMoney(lng, page.eligibility.limitCents, page.pkg?.currency ?? "EUR", 0),
    },
    ibanExample: IBAN_EXAMPLES[paymentCountry] ?? null,
    company: brand.company.name,
  };
}

/** The bank methods' own names (brands, not translated). */
const BANK_NAMES: Record<string, string> = { ideal: "iDEAL", bancontact: "Bancontact", eps: "eps" };

type ActionResult = { intent: string; reply?: SubmissionResult<string[]>; error?: string; notice?: string };
const answer = (result: ActionResult, status = 200) => data(result, { status });

const START_STATUS: Record<Exclude<StartResult, { ok: true }>["reason"], number> = {
  blocked: 403,
  limit: 403,
  country: 403,
  tooManySms: 429,
  mobileUnreachable: 422,
  smsFailed: 503,
  notOffered: 403,
};
const CODE_ERRORS: Record<Exclude<VerifyResult, "ok">, { key: string; status: number }> = {
  invalid: { key: "errors.codeInvalid", status: 400 },
  expired: { key: "errors.codeExpired", status: 400 },
  tooMany: { key: "errors.tooManyAttempts", status: 429 },
  used: { key: "errors.used", status: 409 },
  notFound: { key: "errors.notFound", status: 404 },
};

export async function action({ request, context }: ActionFunctionArgs) {
  const { member, brand, t, paymentCountry } = await setup(request, context);
  // The shared parser: 413 above its limit, a translated 400 for a body that is not a form, before anything changes.
  const form = await readForm(request, context);
  const intent = String(form.get("intent") ?? "");
  const requestId = String(form.get("request") ?? "").slice(0, 64);
  const env = context.env;

  if (intent === "first") {
    const pkg = await getPackageRow(env.DB, brand.id, String(form.get("package") ?? "").slice(0, 16));
    const intentKey = intentKeyOf(form.get("intentKey"));
    if (!pkg || !intentKey) return answer({ intent, error: "errors.notFound" }, 400);
    const started = await startFirstPayment(context, {
      brand,
      member,
      pkg,
      paymentCountry,
      origin: paymentOrigin(brand, context.env, request),
      intentKey,
    });
    if (started.ok) throw redirect(started.redirectTo);
    const error = {
      blocked: "errors.blocked",
      limit: "errors.limit",
      country: "errors.country",
      method: "errors.country",
      discount: "offers:codeErrors.used",
      once: "errors.generic",
      provider: "errors.generic",
    }[started.error];
    return answer({ intent, error }, started.error === "provider" ? 503 : started.error === "discount" ? 409 : 403);
  }

  if (intent === "details") {
    const pkg = await getPackageRow(env.DB, brand.id, String(form.get("package") ?? "").slice(0, 16));
    if (!pkg) return answer({ intent, error: "errors.notFound" }, 400);
    const submission = parseWithZod(form, { schema: await directDebitSchema(paymentCountry) });
    if (submission.status !== "success") return answer({ intent, reply: submission.reply() }, 400);
    const started = await startDirectDebit(env, { brand, member, pkg, details: submission.value, paymentCountry, t });
    if (started.ok) throw redirect("/directdebit");
    const reply =
      started.reason === "mobileUnreachable"
        ? submission.reply({ fieldErrors: { mobile: ["errors.mobileUnreachable"] } })
        : submission.reply({ formErrors: [`errors.${started.reason}`] });
    return answer({ intent, reply }, START_STATUS[started.reason]);
  }

  const complete = async (id: string) => {
    const done = await payByMandate(context, {
      brand,
      member,
      requestId: id,
      origin: paymentOrigin(brand, context.env, request),
    });
    if (done.ok) throw redirect(done.redirectTo);
    const status = { notFound: 404, blocked: 403, limit: 403, provider: 503, discount: 409, notOffered: 403 }[
      done.reason
    ];
    // The discount the request was priced with is gone (used by another payment): the member starts again at today's price.
    const error =
      { provider: "errors.generic", discount: "offers:codeErrors.used" }[done.reason as string] ??
      `errors.${done.reason}`;
    return answer({ intent: "complete", error }, status);
  };

  if (intent === "code") {
    const parsed = codeSchema.safeParse({ request: requestId, code: form.get("code") ?? "" });
    if (!parsed.success) return answer({ intent, error: "errors.codeInvalid" }, 400);
    const verified = await verifyCode(env, member.id, parsed.data.request, parsed.data.code);
    if (verified !== "ok") return answer({ intent, error: CODE_ERRORS[verified].key }, CODE_ERRORS[verified].status);
    return complete(parsed.data.request);
  }

  if (intent === "complete") return complete(requestId);

  if (intent === "resend") {
    const sent = await resendCode(env, { brand, userId: member.id, requestId, t });
    if (sent.ok) return answer({ intent, notice: "code.resent" });
    const key = {
      notFound: "errors.notFound",
      wait: "code.wait",
      tooManySms: "errors.tooManySms",
      smsFailed: "errors.smsFailed",
    }[sent.reason];
    return answer({ intent, error: key }, sent.reason === "notFound" ? 404 : sent.reason === "smsFailed" ? 503 : 429);
  }

  if (intent === "cancel") {
    await cancelRequest(env.DB, member.id, requestId);
    const pkg = String(form.get("package") ?? "");
    throw redirect(/^[\w-]{1,16}$/.test(pkg) ? `/directdebit?package=${pkg}` : "/directdebit");
  }

  return answer({ intent, error: "errors.generic" }, 400);
}

/** A right code whose payment could not be set up moved the request on: show the step it is in now. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as ActionResult | undefined)?.intent === "complete" || defaultShouldRevalidate;

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function DirectDebit() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const { t } = useTranslation("directdebit");
  const { t: ts } = useTranslation("shop");
  return (
    <div className="container page dd-page">
      <header className="page-header">
        <h1>{t("title")}</h1>
        <p className="page-intro">{t("lead")}</p>
      </header>
      {d.pkg ? (
        <div className="card dd-summary" data-testid="dd-package">
          <p>{t("summary", { price: d.pkg.price, credits: d.pkg.credits, name: ts(`tiers.${d.pkg.tier}`) })}</p>
          {d.pkg.was && d.pkg.offer ? (
            <p className="dd-offer" data-testid="dd-offer">
              <s className="price-was" data-testid="price-was">
                {d.pkg.was}
              </s>{" "}
              <strong className="price-now" data-testid="price-now">
                {d.pkg.price}
              </strong>{" "}
              <span>{t("offers:code.active", d.pkg.offer)}</span>
            </p>
          ) : null}
          {d.step === "form" || d.step === "bank" ? <Link to="/directdebit">{t("otherPackage")}</Link> : null}
        </div>
      ) : null}
      {/* A code step's answer after its request has gone (replayed, cancelled elsewhere) still says why. */}
      {d.step === "choose" || d.step === "form" || d.step === "bank" ? (
        <Message result={result} intent={["code", "resend", "complete", "first"]} />
      ) : null}
      {/* Blocked by finance (decision 228): no package to choose, only why. */}
      {d.step === "choose" && d.refusal === "blocked" ? <Refusal reason={d.refusal} vars={d.vars} /> : null}
      {d.step === "choose" && d.refusal !== "blocked" ? <ChoosePackage packages={d.packages} /> : null}
      {d.step === "form" && d.refusal ? <Refusal reason={d.refusal} vars={d.vars} /> : null}
      {d.step === "form" && !d.refusal ? <DetailsForm d={d} /> : null}
      {d.step === "bank" && d.refusal ? <Refusal reason={d.refusal} vars={d.vars} /> : null}
      {d.step === "bank" && !d.refusal ? <BankFirst d={d} /> : null}
      {d.step === "code" ? <CodeStep d={d} /> : null}
      {d.step === "verified" ? <VerifiedStep d={d} /> : null}
      <p className="dd-links">
        <Link to="/credits">{t("otherMethod")}</Link>
      </p>
    </div>
  );
}

function ChoosePackage({ packages }: { packages: LoaderData["packages"] }) {
  const { t } = useTranslation("directdebit");
  const { t: ts } = useTranslation("shop");
  return (
    <section>
      <h2>{t("choosePackage")}</h2>
      <ul className="dd-packages" data-testid="packages">
        {packages.map((p) => (
          <li key={p.id}>
            <Link className="card dd-package" to={`/directdebit?package=${p.id}`}>
              <strong>{ts(`tiers.${p.tier}`)}</strong>
              <span>{ts("package.credits", { count: p.credits })}</span>
              <span className="dd-price">
                {p.was ? (
                  <>
                    <s className="price-was" data-testid="price-was">
                      {p.was}
                    </s>{" "}
                    <span className="price-now" data-testid="price-now">
                      {p.price}
                    </span>
                  </>
                ) : (
                  p.price
                )}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Refusal({ reason, vars }: { reason: string; vars: LoaderData["vars"] }) {
  const { t } = useTranslation("directdebit");
  return (
    <p className="alert alert-danger" role="alert" data-testid="dd-refusal">
      {t(`errors.${reason}`, vars)}
    </p>
  );
}

function DetailsForm({ d }: { d: LoaderData }) {
  const { t } = useTranslation("directdebit");
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<
    Record<"holder" | "iban" | "street" | "houseNumber" | "postalCode" | "city" | "mobile", string>
  >({ lastResult: result?.intent === "details" ? result.reply : undefined, shouldValidate: "onSubmit" });
  const field = { ns: "directdebit", vars: d.vars };
  return (
    <Form method="post" className="card form-card" {...getFormProps(form)} data-testid="dd-form">
      <h2>{t("details")}</h2>
      <input type="hidden" name="intent" value="details" />
      <input type="hidden" name="package" value={d.pkg!.id} />
      <Errors
        form
        id={form.errorId}
        errors={form.errors ?? (result?.intent === "details" && result.error ? [result.error] : undefined)}
        {...field}
      />
      <Field field={fields.holder} label={t("fields.holder")} autoComplete="name" {...field} />
      <Field
        field={fields.iban}
        label={t("fields.iban")}
        autoComplete="off"
        {...field}
        hint={d.ibanExample ? t("hints.iban", { country: d.vars.country, example: d.ibanExample }) : undefined}
      />
      <div className="dd-row dd-row-street">
        <Field field={fields.street} label={t("fields.street")} autoComplete="address-line1" {...field} />
        <Field field={fields.houseNumber} label={t("fields.houseNumber")} {...field} />
      </div>
      <div className="dd-row dd-row-city">
        <Field field={fields.postalCode} label={t("fields.postalCode")} autoComplete="postal-code" {...field} />
        <Field field={fields.city} label={t("fields.city")} autoComplete="address-level2" {...field} />
      </div>
      <Field
        field={fields.mobile}
        label={t("fields.mobile")}
        type="tel"
        autoComplete="tel"
        hint={t("hints.mobile")}
        {...field}
      />
      <p className="dd-mandate">{t("mandate", { company: d.company, amount: d.pkg!.price })}</p>
      <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={busy}>
        {t("send")}
      </button>
    </Form>
  );
}

/** The package paid once by the member's bank, whose account then becomes the direct debit mandate. */
function BankFirst({ d }: { d: LoaderData }) {
  const { t } = useTranslation("directdebit");
  const busy = useNavigation().state === "submitting";
  if (!d.bank) return <Refusal reason="country" vars={d.vars} />;
  return (
    <Form method="post" className="card form-card" data-testid="dd-bank">
      <h2>{t("bank.title", { bank: d.bank.name })}</h2>
      <p>{t("bank.how", { bank: d.bank.name, amount: d.pkg!.price })}</p>
      <p className="dd-mandate">{t("bank.mandate", { company: d.company, bank: d.bank.name })}</p>
      <input type="hidden" name="intent" value="first" />
      <input type="hidden" name="package" value={d.pkg!.id} />
      <input type="hidden" name="intentKey" value={d.intentKey} />
      <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={busy}>
        {t("bank.pay", { bank: d.bank.name, amount: d.pkg!.price })}
      </button>
    </Form>
  );
}

function Message({ result, intent }: { result?: ActionResult; intent: string[] }) {
  const { t } = useTranslation("directdebit");
  if (!result || !intent.includes(result.intent)) return null;
  if (result.notice)
    return (
      <p className="alert alert-success" role="status">
        {t(result.notice)}
      </p>
    );
  if (result.error)
    return (
      <p className="alert alert-danger" role="alert" data-testid="dd-error">
        {t(result.error)}
      </p>
    );
  return null;
}

function CodeStep({ d }: { d: LoaderData }) {
  const { t } = useTranslation("directdebit");
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state === "submitting";
  const r = d.request!;
  return (
    <>
      <Form method="post" className="card form-card dd-code" data-testid="dd-code-form">
        <h2>{t("code.title")}</h2>
        <p>
          {t("code.sent", { length: CODE_LENGTH, mobile: r.mobile })}{" "}
          {t("code.confirm", { amount: d.pkg?.price, iban: r.iban })}
        </p>
        <Message result={result} intent={["code", "resend", "complete"]} />
        {r.spent && !result ? (
          <p className="alert alert-danger" role="alert">
            {t("errors.tooManyAttempts")}
          </p>
        ) : null}
        <input type="hidden" name="intent" value="code" />
        <input type="hidden" name="request" value={r.id} />
        <div className="field">
          <label htmlFor="dd-code">{t("fields.code")}</label>
          <input
            id="dd-code"
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            maxLength={CODE_LENGTH + 2}
            pattern="[0-9 ]*"
            aria-invalid={result?.intent === "code" && result.error ? true : undefined}
          />
        </div>
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={busy}>
          {t("code.submit")}
        </button>
      </Form>
      <div className="dd-secondary">
        {r.canResend ? (
          <Form method="post">
            <input type="hidden" name="intent" value="resend" />
            <input type="hidden" name="request" value={r.id} />
            <button type="submit" className="btn btn-link">
              {t("code.resend")}
            </button>
          </Form>
        ) : (
          <span />
        )}
        <Form method="post">
          <input type="hidden" name="intent" value="cancel" />
          <input type="hidden" name="request" value={r.id} />
          <input type="hidden" name="package" value={r.packageId} />
          <button type="submit" className="btn btn-link">
            {t("code.change")}
          </button>
        </Form>
      </div>
    </>
  );
}

function VerifiedStep({ d }: { d: LoaderData }) {
  const { t } = useTranslation("directdebit");
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const r = d.request!;
  return (
    <Form method="post" className="card form-card" data-testid="dd-verified">
      <p className="alert alert-success" role="status">
        {t("code.verified")}
      </p>
      <Message result={result} intent={["code", "complete"]} />
      <input type="hidden" name="intent" value="complete" />
      <input type="hidden" name="request" value={r.id} />
      <button type="submit" className="btn btn-primary btn-block">
        {t("code.retry")}
      </button>
    </Form>
  );
}
