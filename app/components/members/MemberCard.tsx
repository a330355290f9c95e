import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Icon } from "../Icon";
import { Avatar } from "./PhotoTile";
import { FictionalMark } from "./FictionalMark";

export interface CardData {
  id: string;
  name: string;
  age: number;
  city: string;
  region: string;
  mainPhotoId: string | null;
  online: boolean;
  premium: boolean;
  fictional?: boolean;
  likeNew?: boolean;
  /** A received like the site made (the auto-like), not the other member's choice: shown as a suggestion. */
  suggested?: boolean;
}

/** A member in a list; links to their profile (under /likes/m/ from the likes pages). */
export function MemberCard({
  m,
  base = "/members",
  eager = false,
  children,
}: {
  m: CardData;
  base?: string;
  eager?: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("members");
  return (
    <li className="member-card card">
      <Link to={`${base}/${m.id}`} className="member-card-link">
        <Avatar photoId={m.mainPhotoId} name={m.name} eager={eager} />
        <span className="member-card-body">
          <strong className="member-card-name">
            <span
              className={`status-dot ${m.online ? "online" : "offline"}`}
              title={m.online ? t("status.online") : t("status.offline")}
            />
            {m.name}, {m.age}
            {m.premium ? (
              <span className="badge badge-premium" title={t("profile.premium")}>
                <Icon name="star" size={12} />
              </span>
            ) : null}
            {m.likeNew ? <span className="badge badge-new">{t("likes.new")}</span> : null}
          </strong>
          <span className="member-card-place">{[m.city, m.region].filter(Boolean).join(", ")}</span>
          {m.suggested ? (
            <span className="member-card-suggested" data-testid="like-suggested">
              {t("likes.suggested")}
            </span>
          ) : null}
        </span>
      </Link>
      {/* Outside the link: a <details> may not sit inside an <a>. */}
      {m.fictional ? <FictionalMark className="fictional-mark-card" /> : null}
      {children}
    </li>
  );
}

/** `eager`: how many of the first faces are on the first screen (a row of four on desktop). */
export function MemberGrid({ members, base, eager = 0 }: { members: CardData[]; base?: string; eager?: number }) {
  return (
    <ul className="member-grid">
      {members.map((m, i) => (
        <MemberCard key={m.id} m={m} base={base} eager={i < eager} />
      ))}
    </ul>
  );
}
