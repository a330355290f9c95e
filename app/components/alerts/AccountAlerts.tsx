import type { RootData } from "~/lib/root-data";
import accountStyles from "~/styles/account.css";
import { ActivationReminder } from "../layout/member-chrome";
import { SignupModal } from "./SignupModal";
import { NICHE_WHO } from "~/models/signup-rules";

/** The accounts area's part of the chrome: the activation reminder for members, the sign-up modal for visitors. */
export function AccountAlerts({ root }: { root: RootData }) {
  return (
    <>
      {/* The modal and alert styles, on every page of the default layout (a body link is valid HTML). */}
      <link rel="stylesheet" href={accountStyles} />
      {root.member ? (
        <ActivationReminder member={root.member} />
      ) : (
        <SignupModal minAge={root.brand.minAge} signup={root.signup} who={NICHE_WHO[root.brand.niche]} />
      )}
    </>
  );
}
