/** The team-run profile form's parsing and its refusals (shared by the new and the edit page). */
import { TeamProfileForm, type SaveResult, type TeamProfileInput } from "./team-profiles.server";

export const SAVE_ERRORS: Record<Extract<SaveResult, { ok: false }>["error"], string> = {
  brand: "No such brand.",
  age: "The date of birth is below the brand's minimum age.",
  country: "The brand does not serve that country.",
  city: "No town of that name in that country (the same rule as for members).",
  missing: "No such team-run profile in that brand.",
};

export function parseTeamProfile(form: FormData): TeamProfileInput | null {
  const fields = Object.fromEntries([...form.keys()].map((k) => [k, String(form.get(k))]));
  const parsed = TeamProfileForm.safeParse({ ...fields, languages: form.getAll("languages").map(String) });
  return parsed.success ? parsed.data : null;
}
