/**
 * The sign-up panel of the landers and member landings: the one SignupForm of every sign-up,
 * carrying the partner's tracking data and the member the visitor came for. Where this visitor
 * cannot sign up (docs/product/roles.md §6) it says so instead of showing a form that would fail.
 */
import { Link } from "@remix-run/react";
import type { Gender, Seeking, SignupState, Tracking } from "~/models/signup-rules";
import { SignupForm } from "~/components/account/SignupForm";
import { FictionalMark } from "~/components/members/FictionalMark";

export interface SignupCopy {
  title: string;
  login: string;
  closed: string;
  closedTitle: string;
  minAge: number;
}

export interface SignupFormState {
  state: SignupState;
  tracking: Tracking;
  who: { gender: Gender; seeking: Seeking; fixed: boolean };
  /** The member the visitor came for (member landings): recorded, and the message goes to them. */
  profileId?: string;
}

export function SignupCta({ copy, signup, id = "signup" }: { copy: SignupCopy; signup: SignupFormState; id?: string }) {
  if (signup.state !== "open") {
    return (
      <div className="signup-card signup-cta" role="status" data-testid="signup-closed">
        <h2 id={`${id}-title`}>{copy.closedTitle}</h2>
        <p>{copy.closed}</p>
        <Link to="/login" className="btn btn-primary btn-block btn-lg">
          {copy.login}
        </Link>
      </div>
    );
  }
  return (
    <section className="signup-card signup-cta" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{copy.title}</h2>
      <SignupForm
        minAge={copy.minAge}
        tracking={signup.tracking}
        who={signup.who}
        profileId={signup.profileId}
        idPrefix={`${id}-form`}
        className="signup-form"
      />
    </section>
  );
}

/** A member's public card: photo (or initial), name, age and city. */
export function MemberCard({
  member,
  ageLabel,
  reportLabel,
}: {
  member: { id: string; name: string; age: number; city: string; mainPhotoId: string | null; fictional?: boolean };
  ageLabel: string;
  /** A visitor may report the member (a plain link to the report form, decision 173). */
  reportLabel?: string;
}) {
  return (
    <figure className="card lander-member" data-testid="lander-member">
      {member.mainPhotoId ? (
        <img
          src={`/photos/${member.mainPhotoId}/thumb`}
          alt={member.name}
          width={320}
          height={320}
          className="lander-member-photo"
        />
      ) : (
        <div className="lander-member-photo lander-member-initial" aria-hidden="true">
          {member.name.slice(0, 1)}
        </div>
      )}
      <figcaption>
        <strong className="lander-member-name">{member.name}</strong>
        <span className="lander-member-meta">{[ageLabel, member.city].filter(Boolean).join(" · ")}</span>
        {member.fictional ? <FictionalMark className="lander-member-mark" /> : null}
        {reportLabel ? (
          <a className="lander-report" href={`/report?member=${encodeURIComponent(member.id)}`} rel="nofollow">
            {reportLabel}
          </a>
        ) : null}
      </figcaption>
    </figure>
  );
}
