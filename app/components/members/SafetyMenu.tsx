import { Form } from "@remix-run/react";

/**
 * "⋯" with Block and Report behind it, on the profile and in the chat header, so neither sits one tap
 * from Like or Chat. A <details> opens it: no JavaScript needed. Block posts to the profile's action
 * (`?index`: the profile is an index route), which answers with the profile.
 */
export function SafetyMenu({
  memberId,
  labels,
  busy = false,
}: {
  memberId: string;
  labels: { more: string; block?: string; report: string };
  busy?: boolean;
}) {
  const id = encodeURIComponent(memberId);
  return (
    <details className="dropdown safety-menu">
      <summary className="btn btn-icon safety-menu-toggle" aria-label={labels.more} title={labels.more}>
        <span aria-hidden="true">⋯</span>
      </summary>
      <div className="dropdown-menu dropdown-menu-end">
        {labels.block ? (
          <Form method="post" action={`/members/${id}?index`}>
            <input type="hidden" name="intent" value="block" />
            <button type="submit" className="dropdown-item safety-menu-block" disabled={busy}>
              {labels.block}
            </button>
          </Form>
        ) : null}
        <a className="dropdown-item" href={`/report?member=${id}`}>
          {labels.report}
        </a>
      </div>
    </details>
  );
}
