/** The match finder: compatible members near you with shared interests; a like button on each. */
import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { safeRedirect } from "~/lib/request.server";
import { requireMember } from "~/models/session.server";
import { findMatches } from "~/models/finder.server";
import { like } from "~/models/likes.server";
import { AGES, DISTANCES_KM } from "~/models/profile-options";
import { MemberCard } from "~/components/members/MemberCard";
import { LikeForm } from "~/components/members/LikeForm";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { t, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  const found = await findMatches(context.env.DB, member.id, new URL(request.url).searchParams, lng);
  if (!found) throw new Response("Not found", { status: 404 });
  return { title: t("finder.title"), ...found };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const form = await readForm(request, context);
  await like(context, member.id, String(form.get("targetId") ?? ""), "finder");
  return redirect(safeRedirect(form.get("back"), "/match-finder"));
}

export default function MatchFinder() {
  const { filters, hasPosition, matches } = useLoaderData<typeof loader>();
  const { t } = useTranslation("members");
  return (
    <div className="container members-page">
      <h1>{t("finder.title")}</h1>
      <p className="hint">{t("finder.intro")}</p>
      <Form method="get" className="card search-form">
        <label className="field field-age">
          <span>{t("search.minAge")}</span>
          <select name="min_age" defaultValue={filters.min_age}>
            {AGES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="field field-age">
          <span>{t("search.maxAge")}</span>
          <select name="max_age" defaultValue={filters.max_age}>
            {AGES.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("finder.distance")}</span>
          <select name="distance" defaultValue={filters.distance ?? ""} disabled={!hasPosition}>
            <option value="">{t("finder.anyDistance")}</option>
            {DISTANCES_KM.map((d) => (
              <option key={d} value={d}>
                {t("finder.km", { km: d })}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn btn-primary">
          {t("search.submit")}
        </button>
      </Form>
      {!hasPosition ? (
        <p className="hint">
          <Link to="/profile#location">{t("finder.setLocation")}</Link>
        </p>
      ) : null}
      {matches.length ? (
        <ul className="member-grid">
          {matches.map((m) => (
            <MemberCard key={m.id} m={m}>
              {m.shared > 0 ? <p className="hint">{t("finder.shared", { count: m.shared })}</p> : null}
              <LikeForm targetId={m.id} />
            </MemberCard>
          ))}
        </ul>
      ) : (
        <p className="empty">{t("finder.empty")}</p>
      )}
    </div>
  );
}
