/** "I am … looking for …": the two questions every sign-up form asks (docs/product/data.md §3: gender, sexuality). */
import type { Gender, Seeking } from "~/models/signup-rules";

export interface WhoLabels {
  iAm: string;
  man: string;
  woman: string;
  lookingFor: string;
  men: string;
  women: string;
  both: string;
}

/**
 * Two radio groups with the niche's usual answers preselected; a niche that decides both (gay)
 * sends them as hidden fields instead. Values come back checked after a failed post.
 */
export function WhoFields({
  labels,
  who,
  idPrefix,
  values,
}: {
  labels: WhoLabels;
  who: { gender: Gender; seeking: Seeking; fixed: boolean };
  idPrefix: string;
  values?: { gender?: string; seeking?: string };
}) {
  if (who.fixed) {
    return (
      <>
        <input type="hidden" name="gender" value={who.gender} />
        <input type="hidden" name="seeking" value={who.seeking} />
      </>
    );
  }
  const gender = values?.gender ?? who.gender;
  const seeking = values?.seeking ?? who.seeking;
  const group = (name: "gender" | "seeking", legend: string, options: [string, string][], checked: string) => (
    <fieldset className="who-group" key={name}>
      <legend>{legend}</legend>
      <div className="who-options">
        {options.map(([value, text]) => (
          <label key={value} className="who-option" htmlFor={`${idPrefix}-${name}-${value}`}>
            <input
              type="radio"
              id={`${idPrefix}-${name}-${value}`}
              name={name}
              value={value}
              defaultChecked={checked === value}
            />
            <span>{text}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
  return (
    <div className="who-fields">
      {group(
        "gender",
        labels.iAm,
        [
          ["male", labels.man],
          ["female", labels.woman],
        ],
        gender,
      )}
      {group(
        "seeking",
        labels.lookingFor,
        [
          ["female", labels.women],
          ["male", labels.men],
          ["both", labels.both],
        ],
        seeking,
      )}
    </div>
  );
}
