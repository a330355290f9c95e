import { ACTION_LABELS, when } from "./labels";

/**
 * A decision as the console lists it: what was decided and until when, or, once an appeal reversed
 * it, struck through and marked reversed (it no longer restricts anyone; decision 219).
 */
export function DecisionState({ d }: { d: { action: string; endsAt: number | null; reversedAt: number | null } }) {
  const label = (
    <>
      {ACTION_LABELS[d.action] ?? d.action}
      {d.endsAt && d.action !== "ban" ? ` until ${when(d.endsAt)}` : ""}
    </>
  );
  return d.reversedAt ? (
    <>
      <s>{label}</s> <span className="a-badge">reversed on appeal {when(d.reversedAt)}</span>
    </>
  ) : (
    label
  );
}
