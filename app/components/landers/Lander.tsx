/**
 * The landers: one frame (pitch, the kind's visual, the sign-up form) and one visual per kind, all
 * built from real members. Server-rendered with CSS animation; the only script is the swipe drag.
 */
import { Link, useLoaderData } from "@remix-run/react";
import { Suspense, type ReactNode } from "react";
import landersStyles from "~/styles/landers.css";
import pagesStyles from "~/styles/pages.css";
import { Icon, type IconName } from "~/components/Icon";
import { SignupCta, type SignupCopy, type SignupFormState } from "~/components/pages/SignupCta";
import accountStyles from "~/styles/account.css";
import { Photo, label, type LanderCopy, type LanderMember, type VisualProps } from "./parts";
import { MapVisual, Player, Swipe } from "./visuals";

export const landersLinks = () => [
  { rel: "stylesheet", href: pagesStyles },
  { rel: "stylesheet", href: accountStyles },
  { rel: "stylesheet", href: landersStyles },
];
// Copy comes resolved from the loader, so the browser loads no extra namespace (landing JS budget).
export const landerHandle = { layout: "lander", i18n: ["common"] };

export type { LanderCopy, LanderMember } from "./parts";
export interface LanderView {
  kind: string;
  niche: string;
  copy: LanderCopy;
  members: LanderMember[];
  signup: SignupCopy;
  form: SignupFormState;
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
              <span>{m.city}</span>
            </span>
            {i >= 8 ? (
              <span className="ld-lock">
                <Icon name="lock" size={20} />
                {copy.locked}
              </span>
            ) : null}
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
      <span className="ld-collage-heart" aria-hidden="true">
        <Icon name="heart" size={40} />
      </span>
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
            </a>
          </li>
        ))}
      </ul>
      <ol className="ld-steps">
        {copy.steps.map((s, i) => (
          <li key={i}>
            <span className="ld-step-icon" aria-hidden="true">
              <Icon name={STEP_ICONS[i]!} size={28} />
            </span>
            <div>
              <strong>{s.title}</strong>
              <p>{s.text}</p>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

function Social({ copy, members }: VisualProps) {
  return (
    <div className="ld-social" data-testid="lander-visual">
      <ul className="ld-stories" aria-label={copy.online}>
        {members.slice(0, 8).map((m) => (
          <li key={m.id}>
            <a href="#signup">
              <Photo m={m} eager />
              <span>{m.name}</span>
            </a>
          </li>
        ))}
      </ul>
      {/* Real members with only their own facts: no made-up posts or post times beside them (decision 202). */}
      <ul className="ld-feed">
        {members.slice(0, 5).map((m, i) => (
          <li key={m.id} className="ld-post">
            <header>
              <Photo m={m} className="ld-avatar" eager={i === 0} />
              <div>
                <strong>{label(m)}</strong>
                <span>{m.city}</span>
              </div>
            </header>
            <a href="#signup" className="ld-post-photo" aria-label={label(m)}>
              <Photo m={m} eager={i === 0} />
            </a>
            <footer>
              <a href="#signup">
                <Icon name="heart" size={18} />
                {copy.like}
              </a>
              <a href="#signup">
                <Icon name="chat" size={18} />
                {copy.comment}
              </a>
            </footer>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Night({ copy, members }: VisualProps) {
  const shown = members.slice(0, 4);
  return (
    <>
      <ul className="ld-night" data-testid="lander-visual">
        {shown.map((m, i) => (
          <li key={m.id} style={{ animationDelay: `${0.4 + i * 0.9}s` }}>
            <Photo m={m} className="ld-avatar" eager />
            <div>
              <span className="ld-night-who">
                <strong>{label(m)}</strong> · {m.city}
              </span>
              {/* No "is typing…" dots and no words the member did not write: nobody wrote to a visitor (decision 202). */}
              <a href="#signup" className="ld-reply">
                {copy.reply}
              </a>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

const VISUALS: Record<string, (p: VisualProps) => ReactNode> = {
  gallery: Gallery,
  collagelanding: Collage,
  iconslanding: Icons,
  maplanding: (p) => <MapVisual {...p} />,
  socialnetwork: Social,
  video: (p) => <Player {...p} />,
  transitionsvideolanding: (p) => <Player {...p} reel />,
  alonetonight: Night,
  tinderswipe: (p) => <Swipe {...p} />,
};

/**
 * A visitor may report any member shown on the lander (DSA Art. 16, decision 173): plain links to the
 * report form, folded in a details element, so the visual stays as it is and no script is added.
 */
function ReportLinks({ copy, members }: VisualProps) {
  return (
    <details className="ld-report">
      <summary>{copy.report}</summary>
      <ul>
        {members.map((m) => (
          <li key={m.id}>
            <a href={`/report?member=${encodeURIComponent(m.id)}`} rel="nofollow">
              {label(m)}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

export function LanderRoute() {
  const { kind, niche, copy, members, signup, form } = useLoaderData() as LanderView;
  const Visual = VISUALS[kind]!;
  return (
    <div className={`ld ld-k-${kind} niche-${niche}`} data-kind={kind} data-niche={niche}>
      <div className="container ld-grid">
        <header className="ld-pitch">
          <p className="ld-kicker">{copy.kicker}</p>
          <h1>{copy.headline}</h1>
          <p className="ld-lead">{copy.lead}</p>
          {/* Where this visitor cannot sign up, the card says so; the top button then offers the log-in. */}
          {form.state === "open" ? (
            <a href="#signup" className="btn btn-primary btn-lg ld-jump">
              {copy.cta}
            </a>
          ) : (
            <Link to="/login" className="btn btn-primary btn-lg ld-jump">
              {signup.login}
            </Link>
          )}
        </header>
        <div className="ld-visual">
          {members.length ? (
            <Suspense fallback={null}>
              <Visual copy={copy} members={members} />
            </Suspense>
          ) : null}
          {members.length ? <ReportLinks copy={copy} members={members} /> : null}
        </div>
        <aside className="ld-form" id="signup">
          <SignupCta copy={signup} signup={form} />
          <ul className="ld-points">
            {copy.points.map((p, i) => (
              <li key={i}>
                <Icon name="check" size={16} />
                {p}
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </div>
  );
}
