import { when } from "./labels";

type Item = {
  id: string;
  category: string;
  photoId: string;
  bytes: number;
  createdAt: number;
  retainUntil: number;
  deletedAt: number | null;
};
type Escalation = {
  id: number;
  recipientType: string;
  recipient: string;
  reference: string;
  reportedAt: number;
  by: string;
};

const RECIPIENT_LABELS: Record<string, string> = {
  police: "Police",
  hotline: "National hotline",
  other: "Other authority",
};

/**
 * The admin's part of a case (decision 218): the preserved evidence (opened one by one, each view
 * audited) and the record of to whom and when the case was reported (DSA Art. 18), with its form.
 */
export function EvidenceCard({
  items,
  escalations,
  recipients,
  error,
}: {
  items: Item[];
  escalations: Escalation[];
  recipients: readonly string[];
  error?: string;
}) {
  return (
    <div className="a-card" id="evidence">
      <h2>Evidence and escalation (admin only)</h2>
      {items.length === 0 ? (
        <p className="a-muted">No evidence preserved for this case.</p>
      ) : (
        <ul>
          {items.map((e) => (
            <li key={e.id}>
              {when(e.createdAt)} · photo <code>{e.photoId}</code> ({e.category}, {Math.ceil(e.bytes / 1024)} KB) ·{" "}
              {e.deletedAt ? (
                <span className="a-muted">deleted {when(e.deletedAt)} (retention ended)</span>
              ) : (
                <>
                  kept until {when(e.retainUntil)} ·{" "}
                  <a href={`/admin/evidence/${e.id}`} target="_blank" rel="noreferrer">
                    Open (logged)
                  </a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <h3>Reported to the authorities</h3>
      {escalations.length === 0 ? (
        <p className="a-muted">Not reported to anyone yet.</p>
      ) : (
        <ul>
          {escalations.map((e) => (
            <li key={e.id}>
              {when(e.reportedAt)} · {RECIPIENT_LABELS[e.recipientType] ?? e.recipientType}:{" "}
              <strong>{e.recipient}</strong>
              {e.reference ? ` · reference ${e.reference}` : ""} · recorded by {e.by}
            </li>
          ))}
        </ul>
      )}
      <form method="post">
        <input type="hidden" name="intent" value="escalate" />
        {error ? (
          <p className="a-error" role="alert">
            {error}
          </p>
        ) : null}
        <label className="a-field">
          <span>Reported to</span>
          <select name="recipientType" required defaultValue="police">
            {recipients.map((r) => (
              <option key={r} value={r}>
                {RECIPIENT_LABELS[r] ?? r}
              </option>
            ))}
          </select>
        </label>
        <label className="a-field">
          <span>Who exactly (authority, office)</span>
          <input name="recipient" required minLength={2} maxLength={200} />
        </label>
        <label className="a-field">
          <span>Their reference (if given)</span>
          <input name="reference" maxLength={200} />
        </label>
        <label className="a-field">
          <span>When (UTC)</span>
          <input name="reportedAt" type="datetime-local" required />
        </label>
        <button type="submit" className="a-btn">
          Record the escalation
        </button>
      </form>
    </div>
  );
}
