/**
 * The sign-up call to action of the landers and member landings: a real form posting to /signup,
 * carrying the partner's tracking data and the member the visitor came for. Where this visitor
 * cannot sign up (SPEC section 6) it says so instead of showing a form that would fail.
 */
import { Form, Link } from "@remix-run/react";
import type { Gender, Seeking, SignupState, Tracking } from "~/models/signup-rules";
import { TRACKING_KEYS } from "~/models/signup-rules";
import { WhoFields, type WhoLabels } from "~/components/account/WhoFields";

export interface SignupCopy {
  title: string; email: string; name: string; dateOfBirth: string; password: string; submit: string;
  terms: string; termsLink: string; login: string; maxBirthDate: string; who: WhoLabels;
  message: string; messagePlaceholder: string; closed: string; closedTitle: string;
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
        <Link to="/login" className="btn btn-primary btn-block btn-lg">{copy.login}</Link>
      </div>
    );
  }
  return (
    <Form method="post" action="/signup" reloadDocument className="signup-card signup-cta" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{copy.title}</h2>
      {TRACKING_KEYS.map((k) => (signup.tracking[k] ? <input key={k} type="hidden" name={k} value={signup.tracking[k]!} /> : null))}
      {signup.profileId ? <input type="hidden" name="profile" value={signup.profileId} /> : null}
      <WhoFields labels={copy.who} who={signup.who} idPrefix={id} />
      <label className="field">
        <span>{copy.email}</span>
        <input type="email" name="email" autoComplete="email" required maxLength={254} />
      </label>
      <label className="field">
        <span>{copy.name}</span>
        <input type="text" name="name" autoComplete="nickname" required minLength={2} maxLength={30} />
      </label>
      <label className="field">
        <span>{copy.dateOfBirth}</span>
        <input type="date" name="date_of_birth" autoComplete="bday" required max={copy.maxBirthDate} min="1900-01-01" />
      </label>
      {signup.profileId ? (
        <label className="field">
          <span>{copy.message}</span>
          <textarea name="signup_message" rows={3} maxLength={1000} placeholder={copy.messagePlaceholder} />
        </label>
      ) : null}
      <label className="field">
        <span>{copy.password}</span>
        <input type="password" name="password" autoComplete="new-password" required minLength={8} />
      </label>
      <button type="submit" className="btn btn-primary btn-block btn-lg">{copy.submit}</button>
      <p className="signup-cta-terms">
        {copy.terms} <Link to="/pages/terms">{copy.termsLink}</Link>
      </p>
      <p className="signup-cta-login"><Link to="/login">{copy.login}</Link></p>
    </Form>
  );
}

/** A member's public card: photo (or initial), name, age and city. */
export function MemberCard({ member, ageLabel }: {
  member: { id: string; name: string; age: number; city: string; mainPhotoId: string | null };
  ageLabel: string;
}) {
  return (
    <figure className="card lander-member" data-testid="lander-member">
      {member.mainPhotoId ? (
        <img src={`/photos/${member.mainPhotoId}/thumb`} alt={member.name} width={320} height={320} className="lander-member-photo" />
      ) : (
        <div className="lander-member-photo lander-member-initial" aria-hidden="true">{member.name.slice(0, 1)}</div>
      )}
      <figcaption>
        <strong className="lander-member-name">{member.name}</strong>
        <span className="lander-member-meta">{[ageLabel, member.city].filter(Boolean).join(" · ")}</span>
      </figcaption>
    </figure>
  );
}
