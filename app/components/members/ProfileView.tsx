import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { LikeState } from "~/models/likes.server";
import { Icon } from "../Icon";
import { Avatar, PhotoTile } from "./PhotoTile";
import { NotEnoughCredits } from "../offers/PaidFeatures";
import { SafetyMenu } from "./SafetyMenu";
import { FictionalLabel } from "./FictionalMark";

export interface ProfileViewData {
  profile: {
    id: string;
    name: string;
    age: number;
    city: string;
    region: string;
    country: string;
    mainPhotoId: string | null;
    online: boolean;
    premium: boolean;
    fictional: boolean;
    aboutMe: string | null;
    interests: string[];
    fields: { key: string; value: string; choice: boolean }[];
  };
  photos: { id: string; isMain: boolean; isPrivate: boolean; access: "blur" | "full" }[];
  likeState: LikeState;
  /** The other member's like was the automatic one: shown as a suggestion (decision 179). */
  likeSuggested?: boolean;
  viewerBlocked: boolean;
  own: boolean;
  loggedIn: boolean;
  paidUser: boolean;
  photoCredits: number;
  fictional: { icon: string; singular: string; warning: string };
}

/** The profile screen (/members/{id} and /likes/m/{id}): every action is a plain form post. */
export function ProfileView({ data }: { data: ProfileViewData }) {
  const { t } = useTranslation("members");
  const action = useActionData<{ error?: string; unlock?: "credits"; discount?: string | null }>();
  const busy = useNavigation().state !== "idle";
  const { profile: p, photos } = data;
  const place = [p.city, p.region].filter(Boolean).join(", ");
  const locked = photos.some((ph) => ph.access === "blur");
  return (
    <div className="container members-page profile-view">
      <div className="profile-head">
        <div className="profile-avatar">
          <Avatar photoId={p.mainPhotoId} name={p.name} size="full" eager />
        </div>
        <div className="profile-summary">
          <h1>{p.name}</h1>
          {p.fictional ? <FictionalLabel /> : null}
          <p className="profile-meta">
            {t("profile.age", { count: p.age })}
            {place ? ` · ${place}` : ""}
          </p>
          <p className="profile-badges">
            <span className={`status-dot ${p.online ? "online" : "offline"}`}>
              {p.online ? t("status.online") : t("status.offline")}
            </span>
            {p.premium ? (
              <span className="badge badge-premium">
                <Icon name="star" size={14} /> {t("profile.premium")}
              </span>
            ) : null}
          </p>
          {p.fictional && data.fictional.warning ? (
            <p className="alert alert-info fictional-warning">{data.fictional.warning}</p>
          ) : null}
          {data.likeState === "match" ? (
            <p className="alert alert-success match-banner">{t("likes.itsAMatch", { name: p.name })}</p>
          ) : null}
          {data.likeState === "received" ? (
            <p className="alert alert-info">{t("likes.likedYou", { name: p.name })}</p>
          ) : data.likeSuggested ? (
            // The automatic like: a suggestion, never "X likes you" (decision 214).
            <p className="alert alert-info">{t("likes.suggested")}</p>
          ) : null}
          {!data.own ? (
            <ProfileActions data={data} busy={busy} />
          ) : (
            <Link className="btn" to="/profile">
              {t("profile.edit")}
            </Link>
          )}
        </div>
      </div>

      {p.aboutMe ? (
        <section className="card">
          <h2>{t("fields.about_me")}</h2>
          <p className="about-me">{p.aboutMe}</p>
        </section>
      ) : null}

      {p.fields.length ? (
        <section className="card">
          <h2>{t("profile.details")}</h2>
          <dl className="profile-fields">
            {p.fields.map((f) => (
              <div key={f.key}>
                <dt>{t(`fields.${f.key}`)}</dt>
                <dd>{f.choice ? t(`values.${f.key}.${f.value}`) : f.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      {p.interests.length ? (
        <section className="card">
          <h2>{t("fields.interests")}</h2>
          <ul className="chips">
            {p.interests.map((i) => (
              <li key={i} className="chip">
                {t(`interests.${i}`)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {photos.length ? (
        <section className="card">
          <h2>{t("profile.photos", { count: photos.length })}</h2>
          {action?.unlock === "credits" ? <NotEnoughCredits discount={action.discount ?? null} /> : null}
          {locked ? (
            <p className="hint">
              {t("photos.lockedHint")} <Link to="/premium">{t("photos.getPremium")}</Link>
            </p>
          ) : null}
          <ul className="photo-grid">
            {photos.map((ph) => (
              <li key={ph.id}>
                <PhotoTile
                  id={ph.id}
                  access={ph.access}
                  alt={p.name}
                  unlockFor={data.loggedIn && ph.isPrivate && ph.access === "blur" ? data.photoCredits : undefined}
                />
                {!data.own && data.loggedIn ? (
                  <a className="photo-report" href={`/report?photo=${encodeURIComponent(ph.id)}`}>
                    {t("report.photo")}
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function ProfileActions({ data, busy }: { data: ProfileViewData; busy: boolean }) {
  const { t } = useTranslation("members");
  const id = data.profile.id;
  if (!data.loggedIn) {
    return (
      <p className="profile-actions">
        <Link className="btn btn-primary" to={`/login?redirectTo=${encodeURIComponent(`/members/${id}`)}`}>
          {t("profile.loginToLike")}
        </Link>
      </p>
    );
  }
  const liked = data.likeState === "sent" || data.likeState === "match";
  return (
    <div className="profile-actions">
      {data.viewerBlocked ? (
        <>
          <Form method="post">
            <input type="hidden" name="intent" value="unblock" />
            <button type="submit" className="btn" disabled={busy}>
              {t("block.unblock")}
            </button>
          </Form>
          <SafetyMenu memberId={id} labels={{ more: t("profile.more"), report: t("report.title") }} />
        </>
      ) : (
        <>
          <Form method="post">
            <input type="hidden" name="intent" value={liked ? "unlike" : "like"} />
            <button type="submit" className={`btn ${liked ? "" : "btn-primary"}`} disabled={busy} aria-pressed={liked}>
              <Icon name="heart" size={18} /> {liked ? t("likes.liked") : t("likes.like")}
            </button>
          </Form>
          <Link className="btn btn-primary" to={`/members/${id}/chat`}>
            <Icon name="chat" size={18} /> {t("profile.chat")}
          </Link>
          <SafetyMenu
            memberId={id}
            busy={busy}
            labels={{ more: t("profile.more"), block: t("block.block"), report: t("report.title") }}
          />
        </>
      )}
    </div>
  );
}

/** 'You're blocked by' {name} (docs/product/roles.md §6). */
export function BlockedNotice({ name }: { name: string }) {
  const { t } = useTranslation("members");
  return (
    <div className="container members-page">
      <div className="card blocked-notice">
        <h1>
          {t("block.blockedBy")} {name}
        </h1>
        <p>{t("block.noAccess")}</p>
      </div>
    </div>
  );
}
