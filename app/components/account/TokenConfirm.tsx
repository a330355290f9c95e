import { Form, useNavigation } from "@remix-run/react";

/**
 * The page behind an e-mailed link: the link only shows this button, the post does the work, so a
 * mail scanner that prefetches links cannot activate, reactivate or change anything (no GET changes state).
 */
export function TokenConfirm({
  token,
  title,
  text,
  button,
}: {
  token: string;
  title: string;
  text: string;
  button: string;
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <div className="container container-narrow account-page">
      <h1>{title}</h1>
      <Form method="post" className="card form-card">
        <input type="hidden" name="token" value={token} />
        <p>{text}</p>
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={busy}>
          {button}
        </button>
      </Form>
    </div>
  );
}
