import { NavLink } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { MemberGrid, type CardData } from "./MemberCard";

const TYPES = ["received", "sent", "matches"] as const;

/** /likes and /likes/{type}: tabs and the list; profiles open under /likes/m/{id}. */
export function LikesPage({ type, members }: { type: (typeof TYPES)[number]; members: CardData[] }) {
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
      {members.length ? (
        <MemberGrid members={members} base="/likes/m" />
      ) : (
        <p className="empty">{t(`likes.empty.${type}`)}</p>
      )}
    </div>
  );
}
