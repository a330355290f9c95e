import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import type { Gender, Seeking, SignupState, Tracking } from "~/models/signup-rules";
import type { SignupReply } from "../account/SignupForm";

// Loaded on first open: the form brings zod and conform, which the landing page should not pay for.
const SignupForm = lazy(() =>
  import("../account/ValidatedSignupForm").then((m) => ({ default: m.ValidatedSignupForm })),
);

/**
 * The sign-up modal (docs/product/screens.md §2 and docs/product/states.md §4): with JavaScript, links to /signup open the form in a
 * dialog instead; without it they simply go to /signup. While a sign-up is in progress neither the
 * backdrop nor Escape closes it. It closes on "signupClosed" (the close button) or when the visitor
 * goes to the login page ("redirectedToLogin").
 */
export function SignupModal({
  minAge,
  signup,
  who,
}: {
  minAge: number;
  signup: { state: SignupState; tracking: Tracking } | null;
  who: { gender: Gender; seeking: Seeking; fixed: boolean };
}) {
  const { t } = useTranslation("account");
  const fetcher = useFetcher<SignupReply>();
  const location = useLocation();
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const busy = fetcher.state !== "idle";
  // The server decided (root loader): the first-touch tracking cookie and docs/product/roles.md §6's rule.
  const tracking = signup?.tracking;
  const enabled = signup?.state === "open";

  useEffect(() => {
    if (!enabled || location.pathname.startsWith("/signup")) return;
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
      const a = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!a || a.origin !== window.location.origin || a.pathname !== "/signup") return;
      e.preventDefault();
      setOpen(true);
    };
    // Capture phase: before Remix's <Link> handler (bubbling at the React root) navigates.
    window.addEventListener("click", onClick, true);
    return () => window.removeEventListener("click", onClick, true);
  }, [enabled, location.pathname]);

  useEffect(() => {
    const d = dialog.current;
    if (open && d && !d.open) d.showModal();
    if (!open && d?.open) d.close();
  }, [open]);

  if (!enabled || !tracking) return null;
  const close = () => !busy && setOpen(false);
  return (
    // oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes; the keyboard closes with Escape (onCancel)
    <dialog
      ref={dialog}
      className="modal signup-modal"
      aria-labelledby="signup-modal-title"
      data-busy={busy ? "true" : undefined}
      onCancel={(e) => {
        // Escape: ignored while the sign-up is being sent.
        e.preventDefault();
        close();
      }}
      onClick={(e) => {
        if (e.target === dialog.current) close(); // a click on the backdrop
      }}
      onClose={() => setOpen(false)}
    >
      <div className="modal-header">
        <h2 id="signup-modal-title">{t("signup.title")}</h2>
        <button type="button" className="btn-close" aria-label={t("signup.close")} onClick={close} disabled={busy}>
          ×
        </button>
      </div>
      {open ? (
        <div
          onClickCapture={(e) => {
            const a = (e.target as Element).closest("a[href]") as HTMLAnchorElement | null;
            if (a?.pathname === "/login") {
              e.preventDefault();
              setOpen(false);
              navigate("/login");
            }
          }}
        >
          <Suspense
            fallback={
              <p className="modal-loading" aria-busy="true">
                …
              </p>
            }
          >
            <SignupForm
              minAge={minAge}
              tracking={tracking}
              who={who}
              fetcher={fetcher}
              lastResult={fetcher.data}
              idPrefix="signup-modal"
            />
          </Suspense>
        </div>
      ) : null}
    </dialog>
  );
}
