import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { listSmsOutbox, smsOutboxAvailable } from "~/models/sms.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

/** Development only: every SMS the site sent (direct debit codes), newest first. 404 in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (!smsOutboxAvailable(context.env)) throw new Response("Not Found", { status: 404 });
  return { title: "SMS outbox", messages: await listSmsOutbox(context.env.DB) };
}

export default function SmsOutbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <div className="container account-page outbox">
      <h1>SMS outbox (development)</h1>
      <p>
        <Link to="/dev/outbox">Mail outbox</Link>
      </p>
      {messages.length === 0 ? <p>No SMS yet.</p> : null}
      {messages.map((m) => (
        <article key={m.id} className="card outbox-sms" data-to={m.to}>
          <header>
            <div className="outbox-meta">
              to <span className="outbox-to">{m.to}</span> · {new Date(m.createdAt * 1000).toISOString()}
            </div>
          </header>
          <pre className="outbox-text">{m.body}</pre>
        </article>
      ))}
    </div>
  );
}
