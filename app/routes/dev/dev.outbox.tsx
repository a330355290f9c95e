import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { listOutbox, outboxAvailable } from "~/models/mail.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

/**
 * Development only: the newest mails the site sent, links clickable; `?to=` shows one recipient's
 * (a campaign's hundreds of mails would otherwise push a member's out of the page). 404 in production.
 */
export async function loader({ context, request }: LoaderFunctionArgs) {
  if (!outboxAvailable(context.env)) throw new Response("Not Found", { status: 404 });
  const to = new URL(request.url).searchParams.get("to")?.trim().slice(0, 254) || "";
  return { title: "Outbox", to, mails: await listOutbox(context.env.DB, to || undefined) };
}

const LINK = /(https?:\/\/[^\s]+)/g;

/** Plain text with its URLs as links (the text part: no HTML from the mail is injected). */
function Linked({ text }: { text: string }) {
  return (
    <>
      {text.split(LINK).map((part, i) =>
        i % 2 ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

/**
 * A mail's List-Unsubscribe link as a button that POSTs what a mail client's one-click unsubscribe
 * (RFC 8058) POSTs, to the path on this server (the header's host is the brand's public one).
 */
function OneClick({ headers }: { headers: Record<string, string> | null }) {
  const url = /<(https?:[^>]+)>/.exec(headers?.["List-Unsubscribe"] ?? "")?.[1];
  if (!url) return null;
  const { pathname, search } = new URL(url);
  return (
    <form method="post" action={pathname + search} className="outbox-unsubscribe">
      <input type="hidden" name="List-Unsubscribe" value="One-Click" />
      <span className="outbox-meta">List-Unsubscribe: {url}</span>{" "}
      <button type="submit" className="btn btn-outline btn-sm">
        One-click unsubscribe
      </button>
    </form>
  );
}

export default function Outbox() {
  const { mails, to } = useLoaderData<typeof loader>();
  return (
    <div className="container account-page outbox">
      <h1>Outbox (development)</h1>
      <p>
        <Link to="/dev/sms">SMS outbox</Link>
      </p>
      <form method="get" className="outbox-filter">
        <label htmlFor="outbox-to">Recipient</label> <input id="outbox-to" type="email" name="to" defaultValue={to} />{" "}
        <button type="submit" className="btn btn-outline btn-sm">
          Show
        </button>
      </form>
      {mails.length === 0 ? <p>No mails yet.</p> : null}
      {mails.map((m) => (
        <article key={m.id} className="card outbox-mail" data-to={m.to}>
          <header>
            <strong className="outbox-subject">{m.subject}</strong>
            <div className="outbox-meta">
              to <span className="outbox-to">{m.to}</span> · {new Date(m.createdAt * 1000).toISOString()}
            </div>
          </header>
          <pre className="outbox-text">
            <Linked text={m.text} />
          </pre>
          <OneClick headers={m.headers} />
        </article>
      ))}
    </div>
  );
}
