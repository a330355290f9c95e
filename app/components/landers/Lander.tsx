/**
 * The landers: one frame (pitch, the kind's visual, the sign-up form) and one visual per kind, all
 * built from real members. Server-rendered with CSS animation; the only script is the swipe drag.
 */
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import landersStyles from "~/styles/landers.css";
import pagesStyles from "~/styles/pages.css";
import { Icon, type IconName } from "~/components/Icon";
import { SignupCta, type SignupCopy, type SignupFormState } from "~/components/pages/SignupCta";
import accountStyles from "~/styles/account.css";

export const landersLinks = () => [
  { rel: "stylesheet", href: pagesStyles }, { rel: "stylesheet", href: accountStyles }, { rel: "stylesheet", href: landersStyles },
];
// Copy comes resolved from the loader, so the browser loads no extra namespace (landing JS budget).
export const landerHandle = { layout: "lander", i18n: ["common"] };

export interface LanderMember {
  id: string; name: string; age: number; city: string; photoId: string;
  ago: string; near: boolean; x: number | null; y: number | null;
}
export interface LanderCopy {
  kicker: string; headline: string; lead: string; cta: string; points: string[]; online: string; locked: string;
  near: string; you: string; live: string; upNext: string; play: string; like: string; pass: string; comment: string;
  swipeHint: string; doneTitle: string; doneText: string; typing: string; reply: string;
  posts: string[]; bubbles: string[]; steps: { title: string; text: string }[];
}
export interface LanderView { kind: string; niche: string; copy: LanderCopy; members: LanderMember[]; signup: SignupCopy; form: SignupFormState }

type VisualProps = { copy: LanderCopy; members: LanderMember[] };

const photo = (m: LanderMember) => `/photos/${m.photoId}/thumb`;
const label = (m: LanderMember) => `${m.name}, ${m.age}`;

function Photo({ m, className, eager }: { m: LanderMember; className?: string; eager?: boolean }) {
  return <img src={photo(m)} alt="" className={className} width={400} height={400} loading={eager ? "eager" : "lazy"} decoding="async" />;
}

function Gallery({ copy, members }: VisualProps) {
  return (
    <ul className="ld-gallery" data-testid="lander-visual">
      {members.map((m, i) => (
        <li key={m.id} className={i >= 8 ? "ld-locked" : undefined}>
          <a href="#signup" aria-label={`${label(m)} · ${m.city}`}>
            <Photo m={m} eager={i < 4} />
            <span className="ld-tile-caption">
              <strong>{label(m)}</strong>
              <span><span className="ld-dot" aria-hidden="true" />{m.city}</span>
            </span>
            {i >= 8 ? <span className="ld-lock"><Icon name="lock" size={20} />{copy.locked}</span> : null}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Collage({ members }: VisualProps) {
  return (
    <div className="ld-collage" data-testid="lander-visual">
      {members.slice(0, 9).map((m, i) => (
        <a key={m.id} href="#signup" className="ld-polaroid" aria-label={`${label(m)} · ${m.city}`}>
          <Photo m={m} eager={i < 5} />
          <span>{label(m)}</span>
        </a>
      ))}
      <span className="ld-collage-heart" aria-hidden="true"><Icon name="heart" size={40} /></span>
    </div>
  );
}

const STEP_ICONS: IconName[] = ["user", "pin", "chat"];

function Icons({ copy, members }: VisualProps) {
  return (
    <div className="ld-icons" data-testid="lander-visual">
      <ul className="ld-faces">
        {members.slice(0, 8).map((m, i) => (
          <li key={m.id}>
            <a href="#signup" aria-label={`${label(m)} · ${m.city}`}>
              <Photo m={m} eager={i < 4} />
              <span className="ld-dot" aria-hidden="true" />
            </a>
          </li>
        ))}
      </ul>
      <ol className="ld-steps">
        {copy.steps.map((s, i) => (
          <li key={i}>
            <span className="ld-step-icon" aria-hidden="true"><Icon name={STEP_ICONS[i]!} size={28} /></span>
            <div><strong>{s.title}</strong><p>{s.text}</p></div>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Zoom so the pins near the visitor fill the box, centred on them: at most 2× (the coast must stay recognisable), at least the whole map. */
export function mapWindow(points: { x: number; y: number }[]) {
  if (!points.length) return { cx: 50, cy: 50, zoom: 1 };
  const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const spread = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1);
  const zoom = Math.min(2, Math.max(1, 60 / spread));
  // Keep the window inside the map.
  const half = 50 / zoom;
  return { cx: Math.min(100 - half, Math.max(half, cx)), cy: Math.min(100 - half, Math.max(half, cy)), zoom };
}

function MapVisual({ copy, members }: VisualProps) {
  const pinned = members.filter((m): m is LanderMember & { x: number; y: number } => m.x !== null && m.y !== null);
  const near = pinned.filter((m) => m.near);
  const focus = near.length ? near : pinned;
  const here = near.length
    ? { x: near.reduce((s, m) => s + m.x, 0) / near.length, y: near.reduce((s, m) => s + m.y, 0) / near.length }
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
      <div className="ld-map" role="img" aria-label={copy.near}>
        <div className="ld-map-inner" style={{ width: `${zoom * 100}%`, height: `${zoom * 100}%`, left: `${50 - cx * zoom}%`, top: `${50 - cy * zoom}%` }}>
          {pinned.map((m, i) => (
            <a key={m.id} href="#signup" className={`ld-pin${m.near ? " ld-pin-near" : ""}`} style={{ left: `${m.x}%`, top: `${m.y}%`, transform: `translate(${fan(m)})`, animationDelay: `${(i * 0.12).toFixed(2)}s` }} aria-label={`${label(m)} · ${m.city}`}>
              <Photo m={m} eager />
            </a>
          ))}
          {here ? <span className="ld-here" style={{ left: `${here.x}%`, top: `${here.y}%` }}>{copy.you}</span> : null}
        </div>
      </div>
      <div className="ld-nearlist">
        <h2>{copy.near}</h2>
        <ul>
          {focus.slice(0, 4).map((m) => (
            <li key={m.id}>
              <a href="#signup"><Photo m={m} /><span><strong>{label(m)}</strong><span><Icon name="pin" size={14} />{m.city}</span></span></a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function Social({ copy, members }: VisualProps) {
  return (
    <div className="ld-social" data-testid="lander-visual">
      <ul className="ld-stories" aria-label={copy.online}>
        {members.slice(0, 8).map((m) => (
          <li key={m.id}><a href="#signup"><Photo m={m} eager /><span>{m.name}</span></a></li>
        ))}
      </ul>
      <ul className="ld-feed">
        {members.slice(0, 5).map((m, i) => (
          <li key={m.id} className="ld-post">
            <header>
              <Photo m={m} className="ld-avatar" eager={i === 0} />
              <div>
                <strong>{label(m)}</strong>
                <span>{m.city} · {m.ago}</span>
              </div>
            </header>
            <p>{copy.posts[i % copy.posts.length]!.replace("{{city}}", m.city)}</p>
            <a href="#signup" className="ld-post-photo" aria-label={label(m)}><Photo m={m} eager={i === 0} /></a>
            <footer>
              <a href="#signup"><Icon name="heart" size={18} />{copy.like}</a>
              <a href="#signup"><Icon name="chat" size={18} />{copy.comment}</a>
            </footer>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Player({ copy, members, reel }: VisualProps & { reel?: boolean }) {
  const slides = members.slice(0, 5);
  return (
    <div className={reel ? "ld-reel" : "ld-player-wrap"} data-testid="lander-visual">
      <div className={`ld-player ld-slides-${slides.length}`}>
        {slides.map((m, i) => (
          <figure key={m.id} className="ld-slide" style={{ animationDelay: `${i * 4}s` }}>
            <Photo m={m} eager={i < 2} />
            <figcaption><strong>{label(m)}</strong> · {m.city}</figcaption>
          </figure>
        ))}
        <span className="ld-live"><span className="ld-dot" aria-hidden="true" />{copy.live}</span>
        <a href="#signup" className="ld-play" aria-label={copy.play}><svg viewBox="0 0 24 24" width="34" height="34" aria-hidden="true"><path fill="currentColor" d="M8 5v14l11-7z" /></svg></a>
        <span className="ld-progress" aria-hidden="true" />
      </div>
      {reel ? (
        <div className="ld-filmstrip" aria-hidden="true">
          <div>
            {[...members, ...members].map((m, i) => <Photo key={i} m={m} />)}
          </div>
        </div>
      ) : (
        <div className="ld-upnext">
          <h2>{copy.upNext}</h2>
          <ul>
            {members.slice(5, 9).map((m) => (
              <li key={m.id}><a href="#signup"><Photo m={m} /><span>{label(m)}</span></a></li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function Night({ copy, members }: VisualProps) {
  const shown = members.slice(0, 4);
  return (
    <ul className="ld-night" data-testid="lander-visual">
      {shown.map((m, i) => (
        <li key={m.id} style={{ animationDelay: `${0.4 + i * 0.9}s` }}>
          <Photo m={m} className="ld-avatar" eager />
          <div>
            <span className="ld-night-who"><strong>{label(m)}</strong> · {m.city}</span>
            {i === shown.length - 1 ? (
              <span className="ld-bubble ld-typing" aria-label={`${m.name} ${copy.typing}`}><i /><i /><i /></span>
            ) : (
              <span className="ld-bubble">{copy.bubbles[i % copy.bubbles.length]}</span>
            )}
            <a href="#signup" className="ld-reply">{copy.reply}</a>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * Swipeable cards. Without JavaScript the like and pass buttons are labels of radio inputs that CSS
 * turns into the swipe; with it, a card also follows the finger and the arrow keys swipe.
 */
function Swipe({ copy, members }: VisualProps) {
  const cards = members.slice(0, 6);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const top = () => cards.findIndex((_, i) => !el.querySelector<HTMLInputElement>(`#sw-like-${i}:checked, #sw-pass-${i}:checked`));
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
      {cards.map((_, i) => (
        <span key={i}>
          <input type="radio" name="sw" id={`sw-like-${i}`} className="sw-in" aria-label={`${copy.like} ${i + 1}`} tabIndex={-1} />
          <input type="radio" name="sw" id={`sw-pass-${i}`} className="sw-in" aria-label={`${copy.pass} ${i + 1}`} tabIndex={-1} />
        </span>
      ))}
      <div className="sw-stack">
        <div className="sw-done">
          <Icon name="heart" size={44} />
          <strong>{copy.doneTitle}</strong>
          <p>{copy.doneText}</p>
          <a href="#signup" className="btn btn-primary btn-lg">{copy.cta}</a>
        </div>
        {cards.map((m, i) => (
          <article key={m.id} className={`sw-card sw-c-${i}`} data-i={i} style={{ zIndex: cards.length - i }} aria-label={`${label(m)} · ${m.city}`}>
            <Photo m={m} eager={i < 2} />
            <div className="sw-info">
              <strong>{label(m)}</strong>
              <span><span className="ld-dot" aria-hidden="true" />{m.city}</span>
            </div>
            <div className="sw-actions">
              <label htmlFor={`sw-pass-${i}`} className="sw-btn sw-pass" role="button" tabIndex={0} aria-label={copy.pass}>✕</label>
              <label htmlFor={`sw-like-${i}`} className="sw-btn sw-like" role="button" tabIndex={0} aria-label={copy.like}>♥</label>
            </div>
          </article>
        ))}
      </div>
      <p className="sw-hint">{copy.swipeHint}</p>
    </div>
  );
}

const VISUALS: Record<string, (p: VisualProps) => ReactNode> = {
  gallery: Gallery,
  collagelanding: Collage,
  iconslanding: Icons,
  maplanding: MapVisual,
  socialnetwork: Social,
  video: (p) => <Player {...p} />,
  transitionsvideolanding: (p) => <Player {...p} reel />,
  alonetonight: Night,
  tinderswipe: Swipe,
};

export function LanderRoute() {
  const { kind, niche, copy, members, signup, form } = useLoaderData() as LanderView;
  const Visual = VISUALS[kind]!;
  return (
    <div className={`ld ld-k-${kind} niche-${niche}`} data-kind={kind} data-niche={niche}>
      <div className="container ld-grid">
        <header className="ld-pitch">
          <p className="ld-kicker"><span className="ld-dot" aria-hidden="true" />{copy.kicker}</p>
          <h1>{copy.headline}</h1>
          <p className="ld-lead">{copy.lead}</p>
          <a href="#signup" className="btn btn-primary btn-lg ld-jump">{copy.cta}</a>
        </header>
        <div className="ld-visual">{members.length ? <Visual copy={copy} members={members} /> : null}</div>
        <aside className="ld-form" id="signup">
          <SignupCta copy={signup} signup={form} />
          <ul className="ld-points">
            {copy.points.map((p, i) => <li key={i}><Icon name="check" size={16} />{p}</li>)}
          </ul>
        </aside>
      </div>
    </div>
  );
}
