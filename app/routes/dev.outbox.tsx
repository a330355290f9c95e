import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { listOutbox, outboxAvailable } from "~/models/mail.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

/** Development only: every mail the site sent, newest first, links clickable. 404 in production. */
export async function loader({ context }: LoaderFunctionArgs) {
  if (!outboxAvailable(context.env)) throw new Response("Not Found", { status: 404 });
  return { title: "Outbox", mails: await listOutbox(context.env.DB) };
}

const LINK = /(https?:\/\/[^\s]+)/g;

/** Plain text with its URLs as links (the text part: no HTML from the mail is injected). */
function Linked({ text }: { text: string }) {
  return (
    <>
      {text.split(LINK).map((part, i) => (i % 2 ? <a key={i} href={part}>{part}</a> : part))}
    </>
  );
}

export default function Outbox() {
  const { mails } = useLoaderData<typeof loader>();
  return (
    <div className="container account-page outbox">
      <h1>Outbox (development)</h1>
      <p><Link to="/dev/sms">SMS outbox</Link></p>
      {mails.length === 0 ? <p>No mails yet.</p> : null}
      {mails.map((m) => (
        <article key={m.id} className="card outbox-mail" data-to={m.to}>
          <header>
            <strong className="outbox-subject">{m.subject}</strong>
            <div className="outbox-meta">to <span className="outbox-to">{m.to}</span> · {new Date(m.created_at * 1000).toISOString()}</div>
          </header>
          <pre className="outbox-text"><Linked text={m.text} /></pre>
        </article>
      ))}
    </div>
  );
}
