/** One team-run profile (chat team, admin; decision 201): edit it, or retire it. The mark cannot be unset. */
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Flash } from "~/components/admin/Flash";
import { TeamProfileForm } from "~/components/admin/TeamProfileForm";
import { readForm } from "~/lib/body.server";
import { inboxChoices } from "~/models/admin/inbox.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { retireTeamProfile, saveTeamProfile, teamProfile } from "~/models/admin/team-profiles.server";
import { SAVE_ERRORS, parseTeamProfile } from "~/models/admin/team-profile-form.server";
import { GUARD_REASONS, type GuardReason } from "~/models/team-guard";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "inbox";

const warningsOf = (raw: string | null) =>
  (raw ?? "")
    .split(",")
    .filter((w): w is GuardReason => w in GUARD_REASONS)
    .map((w) => GUARD_REASONS[w]);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const profile = await teamProfile(context.env.DB, operator, params.id ?? "");
  if (!profile) throw new Response("Not found", { status: 404 });
  const { brands } = await inboxChoices(context.env.DB, operator);
  const warnings = warningsOf(new URL(request.url).searchParams.get("warn"));
  return { profile, brands, warnings, title: `Team-run profile · ${profile.name}` };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = params.id ?? "";
  const form = await readForm(request, context);
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
  const { profile, brands, warnings } = useLoaderData<typeof loader>();
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
