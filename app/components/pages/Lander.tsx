/** The member landings: a pitch, the member's public card and the sign-up form. */
import type { ReactNode } from "react";
import { useLoaderData } from "@remix-run/react";
import pagesStyles from "~/styles/pages.css";
import { MemberCard, SignupCta, type SignupCopy, type SignupFormState } from "./SignupCta";
import accountStyles from "~/styles/account.css";

export const landerLinks = () => [
  { rel: "stylesheet", href: pagesStyles },
  { rel: "stylesheet", href: accountStyles },
];
// Copy comes resolved from the loader, so the browser loads no extra namespace (landing JS budget).
export const landerHandle = { layout: "lander", i18n: ["common"] };

export interface LanderProps {
  variant: string;
  niche: string;
  headline: string;
  pitch: string;
  points: string[];
  signup: SignupCopy;
  form: SignupFormState;
  children?: ReactNode;
}

export function LanderPage(p: LanderProps) {
  return (
    <div className={`lander lander-${p.variant} lander-niche-${p.niche}`}>
      <div className="container lander-grid">
        <div className="lander-pitch">
          <h1>{p.headline}</h1>
          <p className="lead">{p.pitch}</p>
          <ul className="lander-points">
            {p.points.map((point, i) => (
              <li key={i}>{point}</li>
            ))}
          </ul>
          {p.children}
        </div>
        <SignupCta copy={p.signup} signup={p.form} />
      </div>
    </div>
  );
}

type MemberLandingData = Omit<LanderProps, "children"> & {
  member: { id: string; name: string; age: number; city: string; mainPhotoId: string | null; fictional: boolean };
  ageLabel: string;
  reportLabel: string;
};

export function MemberLandingRoute() {
  const { member, ageLabel, reportLabel, ...p } = useLoaderData() as MemberLandingData;
  return (
    <LanderPage {...p}>
      <MemberCard member={member} ageLabel={ageLabel} reportLabel={reportLabel} />
    </LanderPage>
  );
}
