/** The sign-up call to action of the landers and member landings: a real form posting to /signup. */
import { Form, Link } from "@remix-run/react";
import { NAME_MAX, NAME_MIN, PASSWORD_MIN } from "~/models/signup-rules";

export interface SignupCopy {
  title: string; email: string; name: string; dateOfBirth: string; password: string; submit: string;
  terms: string; termsLink: string; login: string; maxBirthDate: string;
}

export function SignupCta({ copy, id = "signup" }: { copy: SignupCopy; id?: string }) {
  return (
    <Form method="post" action="/signup" reloadDocument className="signup-card signup-cta" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{copy.title}</h2>
      <label className="field">
        <span>{copy.email}</span>
        <input type="email" name="email" autoComplete="email" required />
      </label>
      <label className="field">
        <span>{copy.name}</span>
        <input type="text" name="name" autoComplete="nickname" required minLength={NAME_MIN} maxLength={NAME_MAX} />
      </label>
      <label className="field">
        <span>{copy.dateOfBirth}</span>
        <input type="date" name="date_of_birth" autoComplete="bday" required max={copy.maxBirthDate} />
      </label>
      <label className="field">
        <span>{copy.password}</span>
        <input type="password" name="password" autoComplete="new-password" required minLength={PASSWORD_MIN} />
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
