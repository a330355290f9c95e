/**
 * /age-check (decisions 185, 198): why a proof of 18+ is asked, the OpenID4VP request as a QR code
 * (another device: "Continue" here completes it) and an `av://` link (this device: the app sends this
 * browser back with a response_code, which completes it), and "Continue", which reads the result on
 * the server and returns to `next`. Works without JavaScript. Where the browser has the Digital Credentials API, a button asks the
 * wallet on this device first (ISO 18013-7 Annex C); its answer comes back to this action (`intent=dc`).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { readForm } from "~/lib/body.server";
import { safeRedirect } from "~/lib/request.server";
import { isDeployed } from "~/lib/env";
import { linkOrigin } from "~/models/brand.server";
import { getMember } from "~/models/session.server";
import { acceptDcResponse, ageCheckPage, completeAnswer, continueCheck } from "~/models/age-check.server";
import { DigitalCredentialOption } from "~/components/age/DigitalCredentialOption";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "age"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { brand, t, country } = await pageContext(request, context, "age");
  const url = new URL(request.url);
  const next = safeRedirect(url.searchParams.get("next"), "/members");
  const member = await getMember(request, context);
  // The same-device app's redirect: completes the answer when this browser made the request.
  const code = url.searchParams.get("response_code");
  if (code !== null) {
    const done = await completeAnswer(request, context.env, { memberId: member?.id ?? null, code });
    if (done.ok) throw redirect(done.next);
  }
  const page = await ageCheckPage(request, context.env, {
    brand,
    country,
    memberId: member?.id ?? null,
    profileCountry: member?.country ?? null,
    next,
    origin: linkOrigin(brand, context.env, request),
  });
  if (page.kind === "done") throw redirect(next);
  // A visitor without the age cookie gets one first (the proof's subject), then sees this page. The
  // redirect is marked `c=1`: arriving marked and still without the cookie, the browser refuses
  // cookies, so it is told so instead of being sent round again.
  if (page.kind === "cookie") {
    const retry = `/age-check?next=${encodeURIComponent(next)}`;
    if (url.searchParams.get("c") === "1") return { noCookies: true as const, title: t("title"), retry };
    throw redirect(`${retry}&c=1`, { headers: { "Set-Cookie": page.setCookie } });
  }
  const devWallet = isDeployed(context.env)
    ? null
    : `/dev/age-wallet?${new URLSearchParams({ request: page.link, back: `/age-check?next=${encodeURIComponent(next)}` })}`;
  // The browser remembers which request it was shown: an under-18 refusal is found by it alone.
  const headers = { "Set-Cookie": page.shownCookie };
  return data(
    {
      noCookies: false as const,
      title: t("title"),
      brandName: brand.name,
      days: brand.ageCheckDays,
      state: page.state,
      link: page.link,
      qr: page.qr,
      dc: page.dc,
      next,
      devWallet,
      refused:
        code !== null ? t("otherBrowser") : page.refused ? `${t(`refused.${page.refused}`)} ${t("tryAgain")}` : null,
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { t, brand } = await pageContext(request, context, "age");
  const form = await readForm(request, context);
  const member = await getMember(request, context);
  if (form.get("intent") === "dc") {
    // The Digital Credentials API answer of this browser's wallet, verified like the app's.
    const outcome = await acceptDcResponse(request, context.env, linkOrigin(brand, context.env, request), {
      memberId: member?.id ?? null,
      state: String(form.get("state") ?? ""),
      response: String(form.get("response") ?? ""),
    });
    if (outcome.status === 200) throw redirect(safeRedirect(form.get("next"), "/members"));
    return { error: outcome.reason ? `${t(`refused.${outcome.reason}`)} ${t("tryAgain")}` : t("expired") };
  }
  const result = await continueCheck(request, context.env, {
    memberId: member?.id ?? null,
    state: String(form.get("state") ?? ""),
  });
  if (result.kind === "passed") throw redirect(safeRedirect(form.get("next"), result.next));
  const message =
    result.kind === "refused"
      ? `${t(`refused.${result.reason}`)} ${t("tryAgain")}`
      : result.kind === "expired"
        ? t("expired")
        : result.kind === "elsewhere"
          ? t("otherBrowser")
          : t("waiting");
  return { error: message };
}

export default function AgeCheck() {
  const data = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const { t } = useTranslation("age");
  if (data.noCookies) {
    return (
      <div className="container container-narrow account-page age-check">
        <h1>{t("title")}</h1>
        <p className="alert alert-danger" role="alert">
          {t("cookies")}
        </p>
        <p>
          <a className="btn btn-primary" href={data.retry}>
            {t("cookiesRetry")}
          </a>
        </p>
      </div>
    );
  }
  return (
    <div className="container container-narrow account-page age-check">
      <h1>{t("title")}</h1>
      {acted?.error || data.refused ? (
        <p className="alert alert-danger" role="alert">
          {acted?.error ?? data.refused}
        </p>
      ) : null}
      <p>{t("why", { brand: data.brandName })}</p>
      <p>
        <strong>{t("learns")}</strong>
      </p>
      {data.dc ? <DigitalCredentialOption dc={data.dc} state={data.state} next={data.next} /> : null}
      <div className="card age-request">
        <div className="age-qr">
          <p>{t("scan")}</p>
          <div
            className="age-qr-code"
            role="img"
            aria-label={t("qrLabel")}
            dangerouslySetInnerHTML={{ __html: data.qr }}
          />
        </div>
        <div className="age-link">
          <p>{t("onPhone")}</p>
          <a className="btn btn-primary" href={data.link}>
            {t("openApp")}
          </a>
        </div>
        {data.devWallet ? (
          <p className="age-dev">
            <a href={data.devWallet}>{t("devWallet")}</a>
          </p>
        ) : null}
      </div>
      <Form method="post" className="age-continue">
        <input type="hidden" name="state" value={data.state} />
        <input type="hidden" name="next" value={data.next} />
        <p>{t("continueHint")}</p>
        <button type="submit" className="btn btn-primary btn-lg">
          {t("continue")}
        </button>
      </Form>
      <h2>{t("getAppTitle")}</h2>
      <p>
        {t("getApp")}{" "}
        <a href="https://ageverification.dev" rel="noopener noreferrer" target="_blank">
          {t("getAppLink")}
        </a>
      </p>
      <p className="text-muted">{t("stored", { days: data.days })}</p>
    </div>
  );
}
