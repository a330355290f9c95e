/** The reason an audited console action asks for (auditReason: 3 to 500 characters). */
export function ReasonField() {
  return (
    <label className="a-field">
      <span>Reason (for the audit log)</span>
      <input name="reason" required minLength={3} maxLength={500} />
    </label>
  );
}
