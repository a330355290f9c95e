/**
 * /dev/age-wallet (development and tests only; 404 in production): a stand-in for the EU age
 * verification app. It reads a request link as the app would, answers as chosen (valid, under 18,
 * expired, wrong issuer, or the previous presentation again) with a test attestation, and posts it to
 * the request's response_uri like the app. Works without JavaScript. Decision 185.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { isDeployed } from "~/lib/env";
import { readForm } from "~/lib/body.server";
import { safeRedirect } from "~/lib/request.server";
import { walletAnswer } from "~/models/age-check.server";
import { WALLET_CHOICES, type WalletChoice } from "~/lib/age/wallet-choices";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export function loader({ request, context }: LoaderFunctionArgs) {
  if (isDeployed(context.env)) throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  return {
    title: "Development age wallet",
    request: url.searchParams.get("request") ?? "",
    back: safeRedirect(url.searchParams.get("back"), ""),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (isDeployed(context.env)) throw new Response("Not Found", { status: 404 });
  const form = await readForm(request, context);
  return walletAnswer(context, new URL(request.url).host, {
    request: String(form.get("request") ?? ""),
    answer: String(form.get("answer") ?? ""),
    previous: String(form.get("previous") ?? ""),
  });
}

const LABELS: Record<WalletChoice, string> = {
  valid: "Valid proof of age (over 18)",
  under_18: "Under 18",
  expired: "Expired attestation",
  wrong_issuer: "Issued by an untrusted provider",
  replayed: "Replay the previous presentation",
};

export default function AgeWallet() {
  const data = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>();
  return (
    <div className="container container-narrow account-page age-wallet">
      <h1>Development age wallet</h1>
      <p className="text-muted">Answers an age verification request with a test attestation, as the EU app would.</p>
      {sent ? (
        <div
          className={`alert ${sent.status === 200 ? "alert-success" : "alert-danger"}`}
          role="status"
          data-status={sent.status}
        >
          <p>
            {sent.error ??
              (sent.status === 200 ? "Accepted by the site." : `Refused by the site (${sent.status}): ${sent.body}`)}
          </p>
          {sent.returnTo || data.back ? (
            <p>
              <a className="btn btn-primary" href={sent.returnTo ?? data.back}>
                Return to the site
              </a>
            </p>
          ) : null}
        </div>
      ) : null}
      <Form method="post" className="card stack">
        <div className="field">
          <label htmlFor="request">Request (the av:// link)</label>
          <textarea id="request" name="request" rows={4} defaultValue={data.request} required />
        </div>
        <fieldset className="field">
          <legend>Answer</legend>
          {WALLET_CHOICES.map((c) => (
            <label key={c} className="check">
              <input type="radio" name="answer" value={c} defaultChecked={c === "valid"} /> {LABELS[c]}
            </label>
          ))}
        </fieldset>
        <input type="hidden" name="previous" value={sent?.previous ?? ""} />
        <button type="submit" className="btn btn-primary">
          Send to the site
        </button>
      </Form>
    </div>
  );
}
