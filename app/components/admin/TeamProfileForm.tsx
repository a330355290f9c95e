/** The form of a team-run profile (decision 201), for creating and editing. English only, as the console. */
import { LANGUAGES } from "~/lib/constants";
import { Choice } from "./Choice";

export type TeamProfileValues = {
  brandId?: number;
  name?: string;
  gender?: string;
  dateOfBirth?: string;
  country?: string;
  city?: string;
  aboutMe?: string;
  languages?: string;
  notes?: string;
};

export function TeamProfileForm({
  brands,
  values,
  submit,
}: {
  brands: { id: number; name: string }[];
  values: TeamProfileValues;
  submit: string;
}) {
  const langs = new Set((values.languages ?? "").split(",").filter(Boolean));
  return (
    <form method="post" className="a-card">
      <input type="hidden" name="intent" value="save" />
      <Choice
        label="Brand"
        name="brandId"
        value={values.brandId}
        any={null}
        required
        options={brands.map((b) => [b.id, b.name])}
      />
      <label className="a-field">
        <span>Name</span>
        <input name="name" required minLength={2} maxLength={40} defaultValue={values.name ?? ""} />
      </label>
      <label className="a-field">
        <span>Gender</span>
        <select name="gender" defaultValue={values.gender ?? "female"}>
          <option value="female">female</option>
          <option value="male">male</option>
        </select>
      </label>
      <label className="a-field">
        <span>Date of birth</span>
        <input name="dateOfBirth" type="date" required defaultValue={values.dateOfBirth ?? ""} />
      </label>
      <label className="a-field">
        <span>Country (code)</span>
        <input name="country" required pattern="[A-Z]{2}" maxLength={2} defaultValue={values.country ?? ""} />
      </label>
      <label className="a-field">
        <span>Town (a known town of that country)</span>
        <input name="city" required maxLength={80} defaultValue={values.city ?? ""} />
      </label>
      <label className="a-field a-field-wide">
        <span>About me</span>
        <textarea name="aboutMe" rows={4} maxLength={2000} defaultValue={values.aboutMe ?? ""} />
      </label>
      <fieldset className="a-lang">
        <legend>Answers in</legend>
        {LANGUAGES.map((l) => (
          <label key={l} className="a-check">
            <input type="checkbox" name="languages" value={l} defaultChecked={langs.has(l)} /> {l}
          </label>
        ))}
      </fieldset>
      <label className="a-field a-field-wide">
        <span>Persona notes (job, children, favourite places: what the team keeps consistent)</span>
        <textarea name="notes" rows={5} maxLength={4000} defaultValue={values.notes ?? ""} />
      </label>
      <p className="a-muted">Always shown as run by the team. No promise of a meeting or a real relationship.</p>
      <button type="submit" className="a-btn">
        {submit}
      </button>
    </form>
  );
}
