import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Errors, Notice } from "~/components/account/Field";
import { pageContext } from "~/lib/page.server";
import { DELETE_REASONS, deleteSchema } from "~/models/account-forms";
import { deleteAccount, retentionDiscountCode } from "~/models/accounts/deletion.server";
import { setInvisible } from "~/models/accounts/settings.server";
import { destroySession, requireMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";
import { linkOrigin } from "~/models/brand.server";
import { refundOffers } from "~/models/payments/refunds.server";
import { formatMoney } from "~/models/shop.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { t, brand, lng } = await pageContext(request, context, "account");
  const step = new URL(request.url).searchParams.get("step") === "reasons" ? "reasons" : "offers";
  // What leaving costs: the unused credits, and the refund the refund days still allow (decision 180).
  const refunds = member.credits > 0 ? await refundOffers(context, brand, member.id) : [];
  return {
    title: t("delete.title"),
    step,
    invisible: member.invisible,
    discount: brand.company.deleteDiscount,
    credits: member.credits,
    refunds: refunds.map((r) => ({
      paymentId: r.paymentId,
      credits: r.credits,
      amount: formatMoney(lng, r.amountCents, r.currency),
    })),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand } = await pageContext(request, context, "account");
  const formData = await readForm(request, context);
  const intent = formData.get("intent");
  if (intent === "invisible") {
    await setInvisible(context.env.DB, member.id, true);
    return { intent, notice: "delete.invisibleOn" } as const;
  }
  if (intent === "discount") {
    const code = await retentionDiscountCode(context.env.DB, brand, member.id);
    return { intent, code } as const;
  }
  const submission = parseWithZod(formData, { schema: deleteSchema() });
  if (submission.status !== "success") return { intent: "delete", result: submission.reply() } as const;
  await deleteAccount(
    context.env,
    brand,
    member,
    submission.value.reason,
    submission.value.remarks ?? "",
    linkOrigin(brand, context.env, request),
  );
  return redirect("/account-deleted", { headers: { "Set-Cookie": await destroySession(request, context) } });
}

/** Step one (docs/product/screens.md §2): the alternatives to leaving. */
function Offers({ invisible, discount }: { invisible: boolean; discount: number }) {
  const { t } = useTranslation("account");
  const data = useActionData<typeof action>();
  return (
    <>
      <p className="lead">{t("delete.offersLead")}</p>
      <div className="account-cards">
        <section className="card">
          <h2>{t("delete.offerEmail")}</h2>
          <p>{t("delete.offerEmailText")}</p>
          <Link to="/settings#email" className="btn btn-outline">
            {t("delete.offerEmailAction")}
          </Link>
        </section>
        <Form method="post" className="card">
          <h2>{t("delete.offerPrivacy")}</h2>
          <p>{t("delete.offerPrivacyText")}</p>
          <Notice text={data?.intent === "invisible" ? t(data.notice!) : null} />
          {invisible || data?.intent === "invisible" ? null : (
            <button type="submit" name="intent" value="invisible" className="btn btn-outline">
              {t("delete.offerPrivacyAction")}
            </button>
          )}
        </Form>
        <section className="card">
          <h2>{t("delete.offerTryout")}</h2>
          <p>{t("delete.offerTryoutText")}</p>
          <Link to="/credits/tryout" className="btn btn-outline">
            {t("delete.offerTryoutAction")}
          </Link>
        </section>
        {discount > 0 ? (
          <Form method="post" className="card">
            <h2>{t("delete.offerDiscount", { percentage: discount })}</h2>
            <p>{t("delete.offerDiscountText", { percentage: discount })}</p>
            {data?.intent === "discount" && data.code ? (
              <p className="alert alert-success" role="status">
                {t("delete.discountCode", { percentage: data.code.percentage })}{" "}
                <strong className="code">{data.code.code}</strong>
              </p>
            ) : (
              <button type="submit" name="intent" value="discount" className="btn btn-outline">
                {t("delete.offerDiscountAction")}
              </button>
            )}
          </Form>
        ) : null}
      </div>
      <p className="delete-continue">
        <Link to="?step=reasons" className="btn btn-link">
          {t("delete.continue")}
        </Link>
      </p>
    </>
  );
}

/** Step two: why, then the deletion itself. */
function Reasons() {
  const { t } = useTranslation("account");
  const data = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: data?.intent === "delete" ? data.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deleteSchema() }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="card form-card" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="delete" />
      <fieldset className="check-list" aria-describedby={fields.reason.errorId}>
        <legend>{t("delete.reasonsTitle")}</legend>
        {DELETE_REASONS.map((r) => (
          <label key={r} className="field-check">
            <input type="radio" name={fields.reason.name} value={r} defaultChecked={fields.reason.initialValue === r} />
            <span>{t(`delete.reasons.${r}`)}</span>
          </label>
        ))}
      </fieldset>
      <Errors id={fields.reason.errorId} errors={fields.reason.errors} />
      <div className="field">
        <label htmlFor={fields.remarks.id}>{t("delete.remarks")}</label>
        <textarea
          id={fields.remarks.id}
          name={fields.remarks.name}
          rows={4}
          maxLength={2000}
          defaultValue={fields.remarks.initialValue}
        />
      </div>
      <p>{t("delete.warning", { days: 14 })}</p>
      <button type="submit" className="btn btn-primary btn-block">
        {t("delete.submit")}
      </button>
      <p className="form-links">
        <Link to="/settings">{t("delete.cancel")}</Link>
      </p>
    </Form>
  );
}

/** Before leaving: the unused credits that go with the account, and the refund still possible for them. */
function CreditsLost() {
  const { credits, refunds } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  if (credits <= 0) return null;
  return (
    <section className="alert alert-warning delete-credits" data-testid="delete-credits">
      <p>
        <strong>{t("delete.creditsLost", { count: credits, days: 14 })}</strong>
      </p>
      {refunds.length ? (
        <ul className="link-list">
          {refunds.map((r) => (
            <li key={r.paymentId}>
              {t("delete.refundOffer", { count: r.credits, amount: r.amount })}{" "}
              <Link to={`/transactions/${r.paymentId}`} className="btn btn-outline btn-sm">
                {t("delete.refundAction")}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export default function DeleteAccount() {
  const { step, invisible, discount } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <div className="container account-page delete-page">
      <h1>{t("delete.title")}</h1>
      <CreditsLost />
      {step === "offers" ? <Offers invisible={invisible} discount={discount} /> : <Reasons />}
    </div>
  );
}
