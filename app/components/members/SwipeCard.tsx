import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState, type PointerEvent } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { Icon } from "../Icon";
import { Avatar } from "./PhotoTile";
import type { CardData } from "./MemberCard";
import { FictionalMark } from "./FictionalMark";

const THRESHOLD = 100; // px of horizontal drag that counts as a swipe

/**
 * One swipe card. Without JavaScript the like and pass buttons post the form; with it, dragging the
 * card past the threshold presses the same buttons, so both paths share one action.
 */
export function SwipeCard({ m, disabled }: { m: CardData; disabled: boolean }) {
  const { t } = useTranslation("members");
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const likeBtn = useRef<HTMLButtonElement>(null);
  const passBtn = useRef<HTMLButtonElement>(null);
  // Set once the card can be dragged (hydrated); tests wait on it, as on the time-bonus banner's.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const onDown = (e: PointerEvent) => {
    if ((e.target as HTMLElement).closest("a, details")) return; // let the profile link and the team-profile mark be tapped
    start.current = e.clientX;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onMove = (e: PointerEvent) => {
    if (start.current !== null) setDx(e.clientX - start.current);
  };
  const onUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (dx > THRESHOLD) likeBtn.current?.click();
    else if (dx < -THRESHOLD) passBtn.current?.click();
    setDx(0);
  };
  return (
    <Form method="post" className="swipe">
      <input type="hidden" name="targetId" value={m.id} />
      <div
        className="swipe-card card"
        style={{ transform: `translateX(${dx}px) rotate(${dx / 20}deg)` }}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={() => {
          start.current = null;
          setDx(0);
        }}
        data-testid="swipe-card"
        data-live={live ? "" : undefined}
      >
        <Avatar photoId={m.mainPhotoId} name={m.name} size="full" eager />
        <div className="swipe-card-body">
          <strong>
            {m.name}, {m.age}
          </strong>
          <span>{[m.city, m.region].filter(Boolean).join(", ")}</span>
          {m.fictional ? <FictionalMark /> : null}
          <Link to={`/members/${m.id}`}>{t("swipe.viewProfile")}</Link>
        </div>
      </div>
      <div className="swipe-buttons">
        <button
          ref={passBtn}
          type="submit"
          name="intent"
          value="pass"
          className="btn btn-round"
          aria-label={t("swipe.pass")}
        >
          <Icon name="close" size={28} />
        </button>
        <button
          ref={likeBtn}
          type="submit"
          name="intent"
          value="like"
          className="btn btn-primary btn-round"
          aria-label={t("swipe.like")}
          disabled={disabled}
        >
          <Icon name="heart" size={28} />
        </button>
      </div>
    </Form>
  );
}

/**
 * The match moment after a swipe like the other member had already given: it fills the screen with
 * both photos and says "It's a match!" once. Plain links close it (works without JavaScript).
 */
export function SwipeMatch({
  m,
  me,
}: {
  m: { id: string; name: string; mainPhotoId: string | null };
  me: { name: string; mainPhotoId: string | null };
}) {
  const { t } = useTranslation("members");
  return (
    <section
      className="swipe-match"
      role="dialog"
      aria-modal="true"
      aria-labelledby="swipe-match-title"
      data-testid="swipe-match"
    >
      <div className="swipe-match-photos">
        <Avatar photoId={me.mainPhotoId} name={me.name} size="full" eager />
        <Avatar photoId={m.mainPhotoId} name={m.name} size="full" eager />
      </div>
      <h2 id="swipe-match-title">{t("swipe.matchTitle")}</h2>
      <p>{t("swipe.matchText", { name: m.name })}</p>
      <div className="swipe-match-actions">
        <Link to={`/members/${m.id}/chat`} className="btn btn-primary btn-lg">
          <Icon name="chat" size={20} />
          {t("swipe.sendMessage")}
        </Link>
        <Link to="/swipe-game" className="btn btn-light btn-lg">
          {t("swipe.keepSwiping")}
        </Link>
      </div>
    </section>
  );
}
