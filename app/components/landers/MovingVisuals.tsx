/**
 * The lander visuals with motion (the map, the slideshow players, the swipe cards): their own
 * module, so the browser loads only the one a lander shows (see visuals.ts; docs/architecture/budgets.md §6).
 */
import { Fragment, useEffect, useRef } from "react";
import { Icon } from "~/components/Icon";
import { nearList } from "~/lib/near-list";
import { Photo, label, type LanderMember, type VisualProps } from "./parts";

/** Zoom so the pins near the visitor fill the box, centred on them: at most 2× (the coast must stay recognisable), at least the whole map. */
export function mapWindow(points: { x: number; y: number }[]) {
  if (!points.length) return { cx: 50, cy: 50, zoom: 1 };
  const xs = points.map((p) => p.x),
    ys = points.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2,
    cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const spread = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1);
  const zoom = Math.min(2, Math.max(1, 60 / spread));
  // Keep the window inside the map.
  const half = 50 / zoom;
  return { cx: Math.min(100 - half, Math.max(half, cx)), cy: Math.min(100 - half, Math.max(half, cy)), zoom };
}

export function MapVisual({ copy, members }: VisualProps) {
  const pinned = members.filter((m): m is LanderMember & { x: number; y: number } => m.x !== null && m.y !== null);
  // Members of the visitor's country with no place on the map (outside Europe) are not on this list,
  // so "near you" is decided by the pinned ones: the heading says what the list shows.
  const { near, list: focus } = nearList(pinned, (m) => m.near);
  const heading = near ? copy.near : copy.online;
  const here = near
    ? { x: focus.reduce((s, m) => s + m.x, 0) / focus.length, y: focus.reduce((s, m) => s + m.y, 0) / focus.length }
    : null;
  const { cx, cy, zoom } = mapWindow(focus);
  // Members of one spot fan out around it, so every face shows.
  const inCell = new Map<string, number>();
  const fan = (m: { x: number; y: number }) => {
    const key = `${Math.round(m.x / 4)}:${Math.round(m.y / 4)}`; // neighbouring cells overlap on screen too
    const k = inCell.get(key) ?? 0;
    inCell.set(key, k + 1);
    const angle = k * 2.4;
    const r = k ? 30 + 16 * Math.sqrt(k) : 0;
    return `${Math.round(Math.cos(angle) * r)}px, ${Math.round(Math.sin(angle) * r)}px`;
  };
  return (
    <div className="ld-mapbox" data-testid="lander-visual">
      {/* The map is a picture of the list below (every pin leads to the sign-up, as the list does): hidden from
          screen readers and out of the tab order, so no link hides inside an image. */}
      <div className="ld-map" aria-hidden="true">
        <div
          className="ld-map-inner"
          style={{
            width: `${zoom * 100}%`,
            height: `${zoom * 100}%`,
            left: `${50 - cx * zoom}%`,
            top: `${50 - cy * zoom}%`,
          }}
        >
          {pinned.map((m, i) => (
            <a
              key={m.id}
              href="#signup"
              className={`ld-pin${m.near ? " ld-pin-near" : ""}`}
              style={{
                left: `${m.x}%`,
                top: `${m.y}%`,
                transform: `translate(${fan(m)})`,
                animationDelay: `${(i * 0.12).toFixed(2)}s`,
              }}
              tabIndex={-1}
            >
              <Photo m={m} eager />
            </a>
          ))}
          {here ? (
            <span className="ld-here" style={{ left: `${here.x}%`, top: `${here.y}%` }}>
              {copy.you}
            </span>
          ) : null}
        </div>
      </div>
      <div className="ld-nearlist">
        <h2>{heading}</h2>
        <ul>
          {focus.slice(0, 4).map((m) => (
            <li key={m.id}>
              <a href="#signup">
                <Photo m={m} />
                <span>
                  <strong>{label(m)}</strong>
                  <span>
                    <Icon name="pin" size={14} />
                    {m.city}
                  </span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function Player({ copy, members, reel }: VisualProps & { reel?: boolean }) {
  const slides = members.slice(0, 5);
  return (
    <div className={reel ? "ld-reel" : "ld-player-wrap"} data-testid="lander-visual">
      <div className={`ld-player ld-slides-${slides.length}`}>
        {slides.map((m, i) => (
          <figure key={m.id} className="ld-slide" style={{ animationDelay: `${i * 4}s` }}>
            <Photo m={m} eager={i < 2} />
            <figcaption>
              <strong>{label(m)}</strong> · {m.city}
            </figcaption>
          </figure>
        ))}
        {/* A slideshow of members' photos, not a stream: the badge says so, without a blinking "live" dot (decision 179). */}
        <span className="ld-reel-badge">
          <Icon name="camera" size={14} />
          {copy.reel}
        </span>
        <a href="#signup" className="ld-play" aria-label={copy.play}>
          <svg viewBox="0 0 24 24" width="34" height="34" aria-hidden="true">
            <path fill="currentColor" d="M8 5v14l11-7z" />
          </svg>
        </a>
        <span className="ld-progress" aria-hidden="true" />
      </div>
      {reel ? (
        <div className="ld-filmstrip" aria-hidden="true">
          <div>
            {[...members, ...members].map((m, i) => (
              <Photo key={i} m={m} />
            ))}
          </div>
        </div>
      ) : (
        <div className="ld-upnext">
          <h2>{copy.upNext}</h2>
          <ul>
            {members.slice(5, 9).map((m) => (
              <li key={m.id}>
                <a href="#signup">
                  <Photo m={m} />
                  <span>{label(m)}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * Swipeable cards. Without JavaScript the like and pass buttons are labels of radio inputs that CSS
 * turns into the swipe; with it, a card also follows the finger and the arrow keys swipe.
 */
export function Swipe({ copy, members }: VisualProps) {
  const cards = members.slice(0, 6);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const top = () =>
      cards.findIndex((_, i) => !el.querySelector<HTMLInputElement>(`#sw-like-${i}:checked, #sw-pass-${i}:checked`));
    const swipe = (dir: "like" | "pass") => {
      const i = top();
      if (i >= 0) el.querySelector<HTMLInputElement>(`#sw-${dir}-${i}`)?.click();
    };
    let start: { x: number; y: number; card: HTMLElement; id: number } | null = null;
    const down = (e: PointerEvent) => {
      const card = (e.target as HTMLElement).closest<HTMLElement>(".sw-card");
      if (!card || (e.target as HTMLElement).closest("label") || Number(card.dataset.i) !== top()) return;
      start = { x: e.clientX, y: e.clientY, card, id: e.pointerId };
      card.setPointerCapture(e.pointerId);
      card.classList.add("sw-dragging");
    };
    const move = (e: PointerEvent) => {
      if (!start || e.pointerId !== start.id) return;
      const dx = e.clientX - start.x;
      start.card.style.transform = `translate(${dx}px, ${(e.clientY - start.y) / 4}px) rotate(${dx / 15}deg)`;
    };
    const up = (e: PointerEvent) => {
      if (!start || e.pointerId !== start.id) return;
      const dx = e.clientX - start.x;
      start.card.classList.remove("sw-dragging");
      start.card.style.transform = "";
      start = null;
      if (Math.abs(dx) > 80) swipe(dx > 0 ? "like" : "pass");
    };
    const key = (e: KeyboardEvent) => {
      if (e.key === "ArrowRight") swipe("like");
      else if (e.key === "ArrowLeft") swipe("pass");
    };
    el.addEventListener("pointerdown", down);
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
    window.addEventListener("keydown", key);
    el.dataset.live = ""; // draggable now (tests wait on it)
    return () => {
      el.removeEventListener("pointerdown", down);
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      window.removeEventListener("keydown", key);
    };
  }, [cards]);
  return (
    <div className="ld-swipe" ref={root} data-testid="lander-visual">
      {/* The inputs are siblings of .sw-stack, not wrapped: the CSS that swipes a card is `:checked ~ .sw-stack`. */}
      {cards.map((_, i) => (
        <Fragment key={i}>
          <input type="radio" name="sw" id={`sw-like-${i}`} className="sw-in" tabIndex={-1} />
          <input type="radio" name="sw" id={`sw-pass-${i}`} className="sw-in" tabIndex={-1} />
        </Fragment>
      ))}
      <div className="sw-stack">
        <div className="sw-done">
          <Icon name="heart" size={44} />
          <strong>{copy.doneTitle}</strong>
          <p>{copy.doneText}</p>
          <a href="#signup" className="btn btn-primary btn-lg">
            {copy.cta}
          </a>
        </div>
        {cards.map((m, i) => (
          <article
            key={m.id}
            className={`sw-card sw-c-${i}`}
            data-i={i}
            style={{ zIndex: cards.length - i }}
            aria-label={`${label(m)} · ${m.city}`}
          >
            <Photo m={m} eager={i < 2} full />
            <div className="sw-info">
              <strong>{label(m)}</strong>
              <span>{m.city}</span>
            </div>
            <div className="sw-actions">
              {/* A label names its radio: it takes no role or name of its own (valid HTML); the text is its name. */}
              <label htmlFor={`sw-pass-${i}`} className="sw-btn sw-pass">
                <span aria-hidden="true">✕</span>
                <span className="visually-hidden">{copy.pass}</span>
              </label>
              <label htmlFor={`sw-like-${i}`} className="sw-btn sw-like">
                <span aria-hidden="true">♥</span>
                <span className="visually-hidden">{copy.like}</span>
              </label>
            </div>
          </article>
        ))}
      </div>
      <p className="sw-hint">{copy.swipeHint}</p>
    </div>
  );
}
