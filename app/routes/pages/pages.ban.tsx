/**
 * /pages/ban: who is refused access and why. Reached with the signed `?statement=` of a ban (the
 * login of a banned member lands here, decision 173), it shows that member's statement of reasons
 * in their language with the appeal link and the contact, and nothing else of the site (no menus).
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { loadStaticPage } from "~/models/pages.server";
import { banStatement } from "~/models/moderation.server";
import { getMember } from "~/models/session.server";
import { ContactCard, StaticPage, staticPageHandle, staticPageLinks } from "~/components/pages/StaticPage";
import { StatementCard } from "~/components/safety/StatementCard";
import accountStyles from "~/styles/account.css";
import type { LayoutChoice } from "~/lib/site-entry";

// Bare (no menus, no footer) only for a banned member's statement; otherwise the site's page like any other.
export const handle = {
  ...staticPageHandle,
  layout: ((data) => ((data as { statement?: unknown } | undefined)?.statement ? "empty" : "default")) as LayoutChoice,
};
export const links = () => [...staticPageLinks(), { rel: "stylesheet", href: accountStyles }];
// A page with someone's statement is never indexed.
export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data?.statement ? [{ name: "robots", content: "noindex" }] : [];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("statement");
  const [page, viewer] = await Promise.all([loadStaticPage(request, context, "ban"), getMember(request, context)]);
  const statement = token ? await banStatement(context.env, token, viewer?.id ?? null) : null;
  return { ...page, statement };
}

export default function BanPage() {
  const { statement, ...page } = useLoaderData<typeof loader>();
  if (!statement) return <StaticPage {...page} />;
  return (
    <article className="container container-narrow page page-ban">
      <header className="page-header">
        <h1>{page.title}</h1>
      </header>
      <StatementCard s={statement} />
      <div className="page-aside">{page.contact ? <ContactCard contact={page.contact} /> : null}</div>
    </article>
  );
}
