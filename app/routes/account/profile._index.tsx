/** My profile: every field of docs/product/data.md §3, the interests, and the location (typed, chosen or from the browser's position). */
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { INTERESTS } from "~/lib/constants";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { loadOwnProfile, profileFormSchema, updateProfile } from "~/models/profiles.server";
import { CHOICE_FIELDS, GENDERS, SEXUALITIES } from "~/models/profile-options";
import { cityLevelPosition, regionForCountry, regionsOf } from "~/models/geo.server";
import { countryName } from "~/components/members/labels";
import { LocationPicker } from "~/components/members/LocationPicker";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { t, brand, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  // The session knows the profile's country: its regions are read beside the profile, not after it.
  const [profile, regions] = await Promise.all([
    loadOwnProfile(context.env.DB, member.id),
    regionsOf(context.env.DB, member.country, lng),
  ]);
  if (!profile) throw new Response("Not found", { status: 404 });
  const countries = brand.countries
    .map((code) => ({ code, name: countryName(code, lng) }))
    .sort((a, b) => a.name.localeCompare(b.name, lng));
  return { title: t("form.title"), profile, regions, countries, minAge: brand.minAge, memberId: member.id };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const [member, { t, brand }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  const form = await readForm(request, context);
  const values = Object.fromEntries([...form.keys()].map((k) => [k, String(form.get(k))]));
  const interests = form.getAll("interests").map(String);
  const parsed = profileFormSchema({ minAge: brand.minAge, email: member.email, countries: brand.countries }).safeParse(
    values,
  );
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]);
      errors[key] ??= issue.message.startsWith("form.")
        ? t(issue.message, { min_age: brand.minAge })
        : t("errors.invalid");
    }
    return data({ errors, values: { ...values, interests } }, { status: 400 });
  }
  const d = parsed.data;
  const region = await regionForCountry(context.env.DB, d.country, d.region);
  if (region === null) {
    const errors: Record<string, string> = { region: t("errors.invalid") };
    return data({ errors, values: { ...values, interests } }, { status: 400 });
  }
  const pos = await cityLevelPosition(context.env.DB, d);
  await updateProfile(
    context.env.DB,
    member.id,
    {
      name: d.name,
      gender: d.gender,
      sexuality: d.sexuality,
      dateOfBirth: d.date_of_birth,
      aboutMe: d.about_me,
      hairColour: d.hair_colour,
      eyeColour: d.eye_colour,
      bodyType: d.body_type,
      relationshipStatus: d.relationship_status,
      tattoos: d.tattoos,
      signupReason: d.signup_reason,
      country: d.country,
      region,
      city: d.city,
      lat: pos?.lat ?? null,
      lon: pos?.lon ?? null,
    },
    interests,
  );
  return redirect("/profile?saved=1");
}

export default function MyProfile() {
  const { profile, regions, countries, memberId } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t } = useTranslation("members");
  const v = (data?.values ?? {}) as Record<string, string | string[] | undefined>;
  const val = (key: string, fallback: string | null) =>
    typeof v[key] === "string" ? (v[key] as string) : (fallback ?? "");
  const chosen = new Set((v.interests as string[] | undefined) ?? profile.interests);
  const err = (key: string) => {
    const e = data?.errors?.[key];
    return e ? (
      <span className="field-error" id={`${key}-error`}>
        {e}
      </span>
    ) : null;
  };
  const select = (key: string, options: readonly string[], current: string | null, allowEmpty: boolean) => (
    <label className="field" key={key}>
      <span>{t(`fields.${key}`)}</span>
      <select name={key} defaultValue={val(key, current)} aria-invalid={!!data?.errors?.[key]}>
        {allowEmpty ? <option value="">{t("form.noChoice")}</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>
            {t(`values.${key}.${o}`)}
          </option>
        ))}
      </select>
      {err(key)}
    </label>
  );
  const current: Record<string, string | null> = {
    hair_colour: profile.hairColour,
    eye_colour: profile.eyeColour,
    body_type: profile.bodyType,
    relationship_status: profile.relationshipStatus,
    tattoos: profile.tattoos,
    signup_reason: profile.signupReason,
  };
  return (
    <div className="container container-narrow members-page">
      <h1>{t("form.title")}</h1>
      <p className="profile-links">
        <Link to="/profile/photos">{t("photos.title")}</Link> ·{" "}
        <Link to={`/members/${memberId}`}>{t("form.viewMine")}</Link>
      </p>
      {params.get("saved") && !data ? (
        <p className="alert alert-success" role="status">
          {t("form.saved")}
        </p>
      ) : null}
      {data?.errors ? (
        <p className="alert alert-danger" role="alert">
          {t("errors.invalid")}
        </p>
      ) : null}
      <Form method="post" className="card profile-form">
        <label className="field">
          <span>{t("fields.name")}</span>
          <input
            name="name"
            defaultValue={val("name", profile.name)}
            required
            maxLength={40}
            aria-invalid={!!data?.errors?.name}
          />
          {err("name")}
        </label>
        {select("gender", GENDERS, profile.gender, false)}
        {select("sexuality", SEXUALITIES, profile.sexuality, false)}
        <label className="field">
          <span>{t("fields.date_of_birth")}</span>
          <input
            type="date"
            name="date_of_birth"
            defaultValue={val("date_of_birth", profile.dateOfBirth)}
            required
            aria-invalid={!!data?.errors?.date_of_birth}
          />
          {err("date_of_birth")}
        </label>
        <LocationPicker
          countries={countries}
          regions={regions}
          value={{
            country: val("country", profile.country),
            region: val("region", profile.region),
            city: val("city", profile.city),
          }}
        />
        {err("country")}
        <label className="field">
          <span>{t("fields.about_me")}</span>
          <textarea name="about_me" rows={5} maxLength={2000} defaultValue={val("about_me", profile.aboutMe)} />
        </label>
        {Object.entries(CHOICE_FIELDS).map(([key, options]) => select(key, options, current[key] ?? null, true))}
        <fieldset className="interests">
          <legend>{t("fields.interests")}</legend>
          <div className="chips">
            {INTERESTS.map((i) => (
              <label key={i} className="chip chip-check">
                <input type="checkbox" name="interests" value={i} defaultChecked={chosen.has(i)} />{" "}
                {t(`interests.${i}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="btn btn-primary">
          {t("form.save")}
        </button>
      </Form>
    </div>
  );
}
