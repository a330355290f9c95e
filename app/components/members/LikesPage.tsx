import { NavLink } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { MemberCard, MemberGrid, type CardData } from "./MemberCard";
import { LikeForm } from "./LikeForm";

const TYPES = ["received", "suggestions", "sent", "matches"] as const;

/** /likes and /likes/{type}: tabs and the list; profiles open under /likes/m/{id}. */
export function LikesPage({
  type,
  members,
}: {
  type: (typeof TYPES)[number];
  members: (CardData & { likedBack?: boolean })[];
}) {
  const { t } = useTranslation("members");
  return (
    <div className="container members-page">
      <h1>{t("likes.title")}</h1>
      <nav className="tabs" aria-label={t("likes.title")}>
        {TYPES.map((k) => (
          <NavLink
            key={k}
            to={`/likes/${k}`}
            className={({ isActive }) => `tab${isActive || k === type ? " active" : ""}`}
            aria-current={k === type ? "page" : undefined}
          >
            {t(`likes.tabs.${k}`)}
          </NavLink>
        ))}
      </nav>
      {type === "suggestions" ? <p className="likes-note">{t("likes.suggestionsNote")}</p> : null}
      {members.length && (type === "received" || type === "suggestions") ? (
        // Not yet liked: "like back" on a received like, a plain "like" on a suggestion (nobody chose the member:
        // decision 214); a form post, with or without JavaScript.
        <ul className="member-grid">
          {members.map((m) => (
            <MemberCard key={m.id} m={m} base="/likes/m">
              {m.likedBack ? null : (
                <LikeForm targetId={m.id} back={type === "received" ? { name: m.name } : undefined} />
              )}
            </MemberCard>
          ))}
        </ul>
      ) : members.length ? (
        <MemberGrid members={members} base="/likes/m" />
      ) : (
        <p className="empty">{t(`likes.empty.${type}`)}</p>
      )}
    </div>
  );
}
