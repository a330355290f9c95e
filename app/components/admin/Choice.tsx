/**
 * The console's one labelled `<select>` (a list's filters, a form's brand): its options as
 * [value, label] pairs, first an option for "any" unless there is none to offer.
 */
export function Choice(p: {
  label: string;
  name: string;
  value?: string | number | null;
  /** The first option's label, whose value is empty ("All brands"); null: no such option. */
  any?: string | null;
  options: readonly (readonly [string | number, string])[];
  required?: boolean;
}) {
  return (
    <label className="a-field">
      <span>{p.label}</span>
      <select name={p.name} defaultValue={p.value ?? ""} required={p.required}>
        {p.any === null ? null : <option value="">{p.any ?? "Any"}</option>}
        {p.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </label>
  );
}
