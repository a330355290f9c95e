import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import type { PushState } from "~/lib/push-client";

/** The push state of this device once known in the browser (null while loading); `known`: already asked. */
export function usePushState(known?: PushState) {
  const [state, setState] = useState<PushState | null>(known ?? null);
  useEffect(() => {
    if (known) return;
    let live = true;
    import("~/lib/push-client")
      .then((p) => p.pushState())
      .then((s) => live && setState(s))
      .catch(() => live && setState("unsupported"));
    return () => {
      live = false;
    };
  }, [known]);
  return [state, setState] as const;
}

/**
 * Turning push on (and, with `allowOff`, off) for this device: the sign-up's push step, /notifications
 * and the push alert. The state (docs/product/states.md §4) decides what shows; the browser's permission prompt
 * only appears after the member's click.
 */
export function PushSetup({
  allowOff = false,
  small = false,
  known,
  onDone,
}: {
  allowOff?: boolean;
  small?: boolean;
  onDone?: (s: PushState) => void;
  /** The state its parent already knows: the button renders with the parent, not a moment later. */
  known?: PushState;
}) {
  const { t, ready } = useTranslation("notify", { useSuspense: false });
  const [state, setState] = usePushState(known);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(false);
  if (!ready || state === null) return null;
  const run = async (on: boolean) => {
    setBusy(true);
    setError(false);
    try {
      const p = await import("~/lib/push-client");
      const next = on ? await p.subscribePush() : await p.unsubscribePush();
      setState(next);
      onDone?.(next);
    } catch {
      setError(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="push-setup" data-push-state={state}>
      {state === "subscribed" ? (
        <p>{t("push.subscribed")}</p>
      ) : state === "denied" ? (
        <p>{t("push.denied")}</p>
      ) : state === "unsupported" ? (
        <p>{t("push.unsupported")}</p>
      ) : null}
      {error ? (
        <p className="alert alert-danger" role="alert">
          {t("push.error")}
        </p>
      ) : null}
      {state === "unknown" ? (
        <button
          type="button"
          className={`btn btn-primary${small ? " btn-sm" : ""}`}
          disabled={busy}
          onClick={() => run(true)}
        >
          {t("push.enable")}
        </button>
      ) : state === "subscribed" && allowOff ? (
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => run(false)}>
          {t("push.turnOff")}
        </button>
      ) : null}
    </div>
  );
}
