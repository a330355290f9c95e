/**
 * The brands' team-run profiles (chat team, admin; decision 201): the list and a new one. Saved texts
 * that promise a meeting or a real relationship come back with a warning.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { Flash } from "~/components/admin/Flash";
import { TeamProfileForm } from "~/components/admin/TeamProfileForm";
import { readForm } from "~/lib/body.server";
import { ageOn } from "~/lib/dates";
import { inboxChoices } from "~/models/admin/inbox.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { listTeamProfiles, saveTeamProfile } from "~/models/admin/team-profiles.server";
import { SAVE_ERRORS, parseTeamProfile } from "~/models/admin/team-profile-form.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "inbox";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const [profiles, choices] = await Promise.all([
    listTeamProfiles(context.env.DB, operator),
    inboxChoices(context.env.DB, operator),
  ]);
  return { profiles, brands: choices.brands, title: "Team-run profiles" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = await readForm(request, context);
  const input = parseTeamProfile(form);
  if (!input) return { error: "Fill in every field (a date of birth, a two-letter country, at least one language)." };
  const saved = await saveTeamProfile(context.env.DB, operator, input);
  if (!saved.ok) return { error: SAVE_ERRORS[saved.error] };
  throw redirect(`/admin/team-profiles/${saved.id}${saved.warnings.length ? `?warn=${saved.warnings.join(",")}` : ""}`);
}

type Profile = ReturnType<typeof useLoaderData<typeof loader>>["profiles"][number];

const PROFILE_COLUMNS: Column<Profile>[] = [
  { header: "Name", cell: (p) => <a href={`/admin/team-profiles/${encodeURIComponent(p.id)}`}>{p.name}</a> },
  { header: "Brand", cell: (p) => p.brandName },
  { header: "Age", cell: (p) => ageOn(p.dateOfBirth) },
  {
    header: "Town",
    cell: (p) => (
      <>
        {p.city}, {p.country}
      </>
    ),
  },
  { header: "Answers in", cell: (p) => p.languages ?? "" },
  { header: "State", cell: (p) => (p.status === "active" ? "active" : "retired") },
];

export default function AdminTeamProfiles() {
  const { profiles, brands } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>Team-run profiles</h1>
      <AdminTable columns={PROFILE_COLUMNS} rows={profiles} rowKey={(p) => p.id} empty="No team-run profiles yet." />
      <h2>New team-run profile</h2>
      <Flash result={result} />
      <TeamProfileForm brands={brands} values={{}} submit="Create" />
    </>
  );
}
