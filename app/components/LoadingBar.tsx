import { useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { LOADING_BAR_DURATION_MS, LOADING_BAR_HIDE_DELAY_MS, LOADING_BAR_THROTTLE_MS } from "~/lib/constants";

type Phase = "idle" | "loading" | "done";

/** A top loading bar: appears after 200 ms of navigation, fills over 5 s, hides 500 ms after the end. */
export function LoadingBar() {
  const busy = useNavigation().state !== "idle";
  const [phase, setPhase] = useState<Phase>("idle");
  useEffect(() => {
    if (busy) {
      const timer = setTimeout(() => setPhase("loading"), LOADING_BAR_THROTTLE_MS);
      return () => clearTimeout(timer);
    }
    setPhase((p) => (p === "loading" ? "done" : p));
    const timer = setTimeout(() => setPhase("idle"), LOADING_BAR_HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  return (
    <div
      className={`loading-bar loading-bar-${phase}`}
      style={{ "--loading-duration": `${LOADING_BAR_DURATION_MS}ms` } as React.CSSProperties}
      aria-hidden="true"
    />
  );
}
