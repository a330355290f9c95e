/**
 * One team-run profile (chat team, admin; decisions 201, 210): edit it, add or remove photos (the
 * members' upload, re-encoding and review pipeline), or retire it. The mark cannot be unset.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Flash } from "~/components/admin/Flash";
import { TeamProfileForm } from "~/components/admin/TeamProfileForm";
import { readForm } from "~/lib/body.server";
import { inboxChoices } from "~/models/admin/inbox.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import {
  addTeamProfilePhoto,
  removeTeamProfilePhoto,
  retireTeamProfile,
  saveTeamProfile,
  teamProfile,
  teamProfilePhotos,
} from "~/models/admin/team-profiles.server";
import { MAX_UPLOAD_BYTES } from "~/models/profile-options";
import { SAVE_ERRORS, parseTeamProfile } from "~/models/admin/team-profile-form.server";
import { GUARD_REASONS, type GuardReason } from "~/models/team-guard";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "inbox";

const warningsOf = (raw: string | null) =>
  (raw ?? "")
    .split(",")
    .filter((w): w is GuardReason => w in GUARD_REASONS)
    .map((w) => GUARD_REASONS[w]);

const PHOTO_ERRORS = {
  not_image: "That is not a JPEG, PNG or WebP image.",
  too_large: `A photo has at most ${MAX_UPLOAD_BYTES >> 20} MB.`,
  too_many_pixels: "That image has too many pixels.",
  limit: "This profile has as many photos as a profile may have.",
} as const;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const profile = await teamProfile(context.env.DB, operator, params.id ?? "");
  if (!profile) throw new Response("Not found", { status: 404 });
  const [{ brands }, photos] = await Promise.all([
    inboxChoices(context.env.DB, operator),
    teamProfilePhotos(context.env.DB, profile.id),
  ]);
  const warnings = warningsOf(new URL(request.url).searchParams.get("warn"));
  return { profile, brands, photos, warnings, title: `Team-run profile · ${profile.name}` };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = params.id ?? "";
  // An oversize upload is refused from its length, before reading it (as the members' photo page).
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_UPLOAD_BYTES + 64 * 1024)
    return { error: PHOTO_ERRORS.too_large };
  const form = await readForm(request, context, { maxBytes: MAX_UPLOAD_BYTES + 64 * 1024 });
  if (form.get("intent") === "photo") {
    const file = form.get("photo");
    if (!(file instanceof File) || file.size === 0) return { error: "Choose a photo first." };
    const added = await addTeamProfilePhoto(context.env, operator, id, new Uint8Array(await file.arrayBuffer()));
    if (!added.ok) return { error: added.error === "missing" ? "Not a team-run profile." : PHOTO_ERRORS[added.error] };
    return { done: "Photo added. It waits for review like a member's photo and shows once approved." };
  }
  if (form.get("intent") === "photo_delete")
    return (await removeTeamProfilePhoto(context.env, operator, id, String(form.get("photoId") ?? "")))
      ? { done: "Photo removed." }
      : { error: "No such photo." };
  if (form.get("intent") === "retire")
    return (await retireTeamProfile(context.env.DB, operator, id))
      ? { done: "Retired: no longer shown anywhere; its conversations stay." }
      : { error: "Already retired, or not a team-run profile." };
  const input = parseTeamProfile(form);
  if (!input) return { error: "Fill in every field (a date of birth, a two-letter country, at least one language)." };
  const saved = await saveTeamProfile(context.env.DB, operator, input, id);
  if (!saved.ok) return { error: SAVE_ERRORS[saved.error] };
  return saved.warnings.length
    ? { error: `Saved, but check it: ${saved.warnings.map((w) => GUARD_REASONS[w]).join(" ")}` }
    : { done: "Saved." };
}

export default function AdminTeamProfile() {
  const { profile, brands, photos, warnings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <p>
        <a href="/admin/team-profiles">← Team-run profiles</a>
      </p>
      <h1>
        {profile.name} <span className="a-badge">team-run{profile.status === "active" ? "" : " · retired"}</span>
      </h1>
      {warnings.length ? <Flash result={{ error: `Saved, but check it: ${warnings.join(" ")}` }} /> : null}
      <Flash result={result} />
      <TeamProfileForm
        brands={brands.filter((b) => b.id === profile.brandId)}
        values={{ ...profile, languages: profile.languages ?? "", notes: profile.notes ?? "" }}
        submit="Save"
      />
      <section className="a-card">
        <h2>Photos</h2>
        {photos.length === 0 ? <p className="a-muted">No photos yet.</p> : null}
        <ul className="a-photos">
          {photos.map((p) => (
            <li key={p.id}>
              <img src={`/admin/team-photo/${p.id}/thumb`} alt="" width={120} height={120} />
              <span className={p.pending ? "a-badge" : "a-badge a-badge-ok"}>
                {p.pending ? "waiting for review" : "approved"}
                {p.isMain ? " · main" : ""}
              </span>
              <form method="post">
                <input type="hidden" name="intent" value="photo_delete" />
                <input type="hidden" name="photoId" value={p.id} />
                <button type="submit" className="a-btn a-btn-quiet">
                  Remove
                </button>
              </form>
            </li>
          ))}
        </ul>
        <form method="post" encType="multipart/form-data" className="a-filters">
          <input type="hidden" name="intent" value="photo" />
          <label className="a-field">
            <span>New photo (JPEG, PNG or WebP)</span>
            <input type="file" name="photo" accept="image/jpeg,image/png,image/webp" required />
          </label>
          <button type="submit" className="a-btn">
            Upload
          </button>
        </form>
        <p className="a-muted">
          Re-encoded without its metadata and reviewed by a moderator like a member&rsquo;s photo; members see it once
          approved.
        </p>
      </section>
      {profile.status === "active" ? (
        <form method="post" className="a-card">
          <input type="hidden" name="intent" value="retire" />
          <p>Retiring hides the profile everywhere; its conversations and their history stay.</p>
          <button type="submit" className="a-btn a-btn-quiet">
            Retire
          </button>
        </form>
      ) : null}
    </>
  );
}
