/**
 * The confirmation step of a dangerous console action (decision 217): its impact in words, the form's
 * own fields posted again with `confirmed`, and the code or password asked again. A plain form.
 */
type Confirmation = {
  impact: string;
  fields: [string, string][];
  reauth: "code" | "password" | null;
  error?: string;
};

export function ConfirmStep({ confirm, cancel }: { confirm: Confirmation; cancel: string }) {
  return (
    <form method="post" className="a-card a-confirm" aria-label="Confirm">
      <h2>Confirm</h2>
      <p className="a-confirm-impact">{confirm.impact}</p>
      {confirm.error ? (
        <p className="a-error" role="alert">
          {confirm.error}
        </p>
      ) : null}
      {confirm.fields.map(([name, value], i) => (
        <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="confirmed" value="1" />
      {confirm.reauth === "code" ? (
        <label className="a-field">
          <span>Your authentication code</span>
          <input
            name="reauth_code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
          />
        </label>
      ) : confirm.reauth === "password" ? (
        <label className="a-field">
          <span>Your password</span>
          <input name="reauth_password" type="password" autoComplete="current-password" maxLength={200} required />
        </label>
      ) : null}
      <div className="a-btn-row">
        <button type="submit" className="a-btn a-btn-danger">
          Yes, do it
        </button>
        <a href={cancel}>Cancel</a>
      </div>
    </form>
  );
}
