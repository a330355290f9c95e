/**
 * After sign-up: message, photo, location, personal info, about me, push notifications, confirm
 * e-mail. One step per page (?step=), each one skippable with a plain link; no JavaScript needed.
 */
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { INTERESTS } from "~/lib/constants";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { loadOwnProfile, type ProfileCard, profileFormSchema, updateProfile } from "~/models/profiles.server";
import { CHOICE_FIELDS } from "~/models/profile-options";
import { cityLevelPosition, regionForCountry, regionsOf, type Region } from "~/models/geo.server";
import { nextCards } from "~/models/swipe.server";
import { countryName } from "~/components/members/labels";
import { LocationPicker } from "~/components/members/LocationPicker";
import { MemberGrid } from "~/components/members/MemberCard";
import { PushSetup } from "~/components/notify/PushSetup";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members", "notify"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const STEPS = ["message", "photo", "location", "personal", "about", "push", "confirm"] as const;
type Step = (typeof STEPS)[number];
const stepOf = (s: string | null): Step => ((STEPS as readonly string[]).includes(s ?? "") ? (s as Step) : "message");
const nextOf = (s: Step) => {
  const i = STEPS.indexOf(s);
  return i + 1 < STEPS.length ? `/complete-signup?step=${STEPS[i + 1]}` : "/members";
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { t, brand, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  const step = stepOf(new URL(request.url).searchParams.get("step"));
  const d1 = context.env.DB;
  const profile = await loadOwnProfile(d1, member.id);
  if (!profile) throw new Response("Not found", { status: 404 });
  const [regions, suggestions] = await Promise.all([
    step === "location" ? regionsOf(d1, profile.country, lng) : Promise.resolve([] as Region[]),
    step === "message" ? nextCards(d1, member, 6, lng).then((r) => r.cards) : Promise.resolve([] as ProfileCard[]),
  ]);
  const countries = brand.countries.map((code) => ({ code, name: countryName(code, lng) }));
  return {
    title: t("steps.title"),
    step,
    next: nextOf(step),
    index: STEPS.indexOf(step),
    profile,
    regions,
    suggestions,
    countries,
    confirmed: member.status === "confirmed",
    hasPhoto: member.mainPhotoId !== null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const [member, { t, brand }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  const step = stepOf(new URL(request.url).searchParams.get("step"));
  const form = await readForm(request, context);
  const values = Object.fromEntries([...form.keys()].map((k) => [k, String(form.get(k))]));
  const schema = profileFormSchema({ minAge: brand.minAge, email: member.email, countries: brand.countries });
  const d1 = context.env.DB;
  if (step === "location") {
    const r = schema.pick({ country: true, region: true, city: true, lat: true, lon: true }).safeParse(values);
    const region = r.success ? await regionForCountry(d1, r.data.country, r.data.region) : null;
    if (!r.success || region === null) return data({ error: t("errors.invalid") }, { status: 400 });
    const pos = await cityLevelPosition(d1, r.data);
    await updateProfile(d1, member.id, {
      country: r.data.country,
      region,
      city: r.data.city,
      lat: pos?.lat ?? null,
      lon: pos?.lon ?? null,
    });
  } else if (step === "personal") {
    const r = schema
      .pick({
        hair_colour: true,
        eye_colour: true,
        body_type: true,
        relationship_status: true,
        tattoos: true,
        signup_reason: true,
      })
      .safeParse(values);
    if (!r.success) return data({ error: t("errors.invalid") }, { status: 400 });
    const d = r.data;
    await updateProfile(d1, member.id, {
      hairColour: d.hair_colour,
      eyeColour: d.eye_colour,
      bodyType: d.body_type,
      relationshipStatus: d.relationship_status,
      tattoos: d.tattoos,
      signupReason: d.signup_reason,
    });
  } else if (step === "about") {
    const r = schema.pick({ about_me: true }).safeParse(values);
    if (!r.success) return data({ error: t("errors.invalid") }, { status: 400 });
    await updateProfile(d1, member.id, { aboutMe: r.data.about_me }, form.getAll("interests").map(String));
  }
  return redirect(nextOf(step));
}

export default function CompleteSignup() {
  const d = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("members");
  const p = d.profile;
  const skip = (
    <Link to={d.next} className="btn btn-link">
      {t("steps.skip")}
    </Link>
  );
  const save = (
    <button type="submit" className="btn btn-primary">
      {t("steps.saveNext")}
    </button>
  );
  const current: Record<string, string | null> = {
    hair_colour: p.hairColour,
    eye_colour: p.eyeColour,
    body_type: p.bodyType,
    relationship_status: p.relationshipStatus,
    tattoos: p.tattoos,
    signup_reason: p.signupReason,
  };
  return (
    <div className="container container-narrow members-page complete-signup">
      <p className="steps-progress">{t("steps.progress", { step: d.index + 1, total: STEPS.length })}</p>
      <h1>{t(`steps.${d.step}.title`)}</h1>
      <p>{t(`steps.${d.step}.text`)}</p>
      {data?.error ? (
        <p className="alert alert-danger" role="alert">
          {data.error}
        </p>
      ) : null}
      {d.step === "message" ? (
        <>
          <MemberGrid members={d.suggestions} />
          <p className="step-actions">
            <Link to={d.next} className="btn btn-primary">
              {t("steps.next")}
            </Link>
            {skip}
          </p>
        </>
      ) : d.step === "photo" ? (
        <Form method="post" action="/profile/photos" encType="multipart/form-data" className="card">
          <input type="hidden" name="intent" value="upload" />
          <input type="hidden" name="redirectTo" value={d.next} />
          {d.hasPhoto ? <p className="alert alert-success">{t("steps.photo.done")}</p> : null}
          <label className="field">
            <span>{t("photos.choose")}</span>
            <input type="file" name="photo" accept="image/jpeg,image/png,image/webp" required />
          </label>
          <p className="step-actions">
            {save}
            {skip}
          </p>
        </Form>
      ) : d.step === "location" ? (
        <Form method="post" className="card">
          <LocationPicker
            countries={d.countries}
            regions={d.regions}
            value={{ country: p.country, region: p.region, city: p.city }}
          />
          <p className="step-actions">
            {save}
            {skip}
          </p>
        </Form>
      ) : d.step === "personal" ? (
        <Form method="post" className="card">
          {Object.entries(CHOICE_FIELDS).map(([key, options]) => (
            <label className="field" key={key}>
              <span>{t(`fields.${key}`)}</span>
              <select name={key} defaultValue={current[key] ?? ""}>
                <option value="">{t("form.noChoice")}</option>
                {options.map((o) => (
                  <option key={o} value={o}>
                    {t(`values.${key}.${o}`)}
                  </option>
                ))}
              </select>
            </label>
          ))}
          <p className="step-actions">
            {save}
            {skip}
          </p>
        </Form>
      ) : d.step === "about" ? (
        <Form method="post" className="card">
          <label className="field">
            <span>{t("fields.about_me")}</span>
            <textarea name="about_me" rows={5} maxLength={2000} defaultValue={p.aboutMe} />
          </label>
          <fieldset className="interests">
            <legend>{t("fields.interests")}</legend>
            <div className="chips">
              {INTERESTS.map((i) => (
                <label key={i} className="chip chip-check">
                  <input type="checkbox" name="interests" value={i} defaultChecked={p.interests.includes(i)} />{" "}
                  {t(`interests.${i}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <p className="step-actions">
            {save}
            {skip}
          </p>
        </Form>
      ) : d.step === "push" ? (
        <div className="card">
          {/* With JavaScript: subscribe this device right here; without it, the settings page. */}
          <PushSetup />
          <p className="step-actions">
            <Link to="/notifications" className="btn btn-outline">
              {t("steps.push.action")}
            </Link>
            <Link to={d.next} className="btn btn-link">
              {t("steps.skip")}
            </Link>
          </p>
        </div>
      ) : (
        <>
          {d.confirmed ? (
            <p className="alert alert-success">{t("steps.confirm.done")}</p>
          ) : (
            <p className="alert alert-info">{t("steps.confirm.pending")}</p>
          )}
          <p className="step-actions">
            <Link to="/members" className="btn btn-primary">
              {t("steps.finish")}
            </Link>
          </p>
        </>
      )}
    </div>
  );
}
