/**
 * One conversation of a team-run profile (chat team, admin; decision 201). Opening it claims it (one
 * team member at a time; another sees who holds it since when and cannot write). The history is the
 * conversation object's own (what the member sees), beside the member's public profile, their other
 * conversations with the brand's team-run profiles, the persona notes and the team's notes on them.
 * The reply is written as the profile; the guard rails refuse meeting, contact, links and money.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Flash } from "~/components/admin/Flash";
import { ageOf, when } from "~/components/admin/labels";
import { readForm } from "~/lib/body.server";
import { nowS } from "~/lib/dates";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import {
  NOTES_MAX,
  REPLY_MAX,
  claimConversation,
  markReadAsProfile,
  releaseClaim,
  replyClientId,
  saveMemberNotes,
  teamConversation,
  teamReply,
} from "~/models/admin/inbox.server";
import { GUARD_REASONS } from "~/models/team-guard";
import { LiveScript } from "~/components/admin/LiveScript";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "inbox";

const conversationId = z.string().regex(/^[\w-]{1,64}$/);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = conversationId.safeParse(params.id);
  if (!id.success) throw new Response("Not found", { status: 404 });
  const now = nowS();
  const claim = await claimConversation(context.env.DB, operator, id.data, now);
  if (!claim.ok && "missing" in claim) throw new Response("Not found", { status: 404 });
  const view = await teamConversation(context.env, operator, id.data, now);
  if (!view) throw new Response("Not found", { status: 404 });
  // Opened by its holder: the member's messages are read, as when anyone opens a chat.
  if (claim.ok) await markReadAsProfile(context.env, id.data, view.profileId);
  return { view, claim, now, clientId: replyClientId(), title: `Inbox · ${view.member?.name ?? ""}` };
}

const ActionForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("reply"),
    body: z.string().max(REPLY_MAX * 2),
    clientId: z.string().regex(/^team-[\w-]{6,40}$/),
  }),
  z.object({ intent: z.literal("release") }),
  z.object({ intent: z.literal("notes"), notes: z.string().max(NOTES_MAX * 2) }),
]);

const SEND_ERRORS: Record<string, string> = {
  claim: "You no longer hold this conversation (the claim lapsed or someone else has it). Open it again.",
  empty: "Write a reply first.",
  long: `A reply has at most ${REPLY_MAX} characters.`,
};

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = conversationId.safeParse(params.id);
  if (!id.success) throw new Response("Not found", { status: 404 });
  const parsed = ActionForm.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) return { error: "That form was not complete." };
  const input = parsed.data;
  if (input.intent === "release") {
    await releaseClaim(context.env.DB, operator, id.data);
    throw redirect("/admin/inbox");
  }
  if (input.intent === "notes") {
    const view = await teamConversation(context.env, operator, id.data);
    if (!view) throw new Response("Not found", { status: 404 });
    await saveMemberNotes(context.env.DB, operator, view.memberId, input.notes);
    return { done: "Notes saved." };
  }
  const result = await teamReply(context.env, operator, id.data, { body: input.body, clientId: input.clientId });
  if (result.ok) throw redirect("/admin/inbox?sent=1");
  const error =
    result.error === "guard"
      ? `Not sent. ${result.reasons.map((r) => GUARD_REASONS[r]).join(" ")}`
      : result.error === "send"
        ? `Not sent: the conversation refused it (${result.detail ?? "error"}).`
        : SEND_ERRORS[result.error]!;
  return { error, body: input.body };
}

export default function AdminInboxConversation() {
  const { view, claim, now, clientId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const mine = claim.ok;
  const { member, profile, persona } = view;
  return (
    <>
      <p>
        <a href="/admin/inbox">← Inbox</a>
      </p>
      <h1>
        {member?.name ?? "Member"} → {profile?.name ?? "profile"}{" "}
        <span className="a-badge">team-run · {view.brandName}</span>
      </h1>
      <Flash result={result} />
      {mine ? (
        <p className="a-ok" role="status">
          You hold this conversation (it lapses after a few idle minutes).
        </p>
      ) : (
        <p className="a-error" role="alert">
          Held by {"holder" in claim ? claim.holder : "another team member"} since{" "}
          {"since" in claim ? `${ageOf(now - claim.since)} ago` : "a moment"}: you cannot write here.
        </p>
      )}
      <div className="a-inbox-grid">
        <section className="a-card" aria-label="Conversation">
          <p className="a-muted">
            {view.waitingSince ? `Waiting ${ageOf(now - view.waitingSince)}` : "Answered"} ·{" "}
            {view.credits === 1 ? "1 credit" : `${view.credits} credits`} spent here · language {view.language}
          </p>
          <ol className="a-thread">
            {view.messages.map((m) =>
              m.kind === "notice" ? (
                <li key={m.id} className="a-muted">
                  {when(m.createdAt)}: no reply in time, {m.body.split("|")[0]} credits went back to the member.
                </li>
              ) : (
                <li key={m.id} className={m.senderId === view.profileId ? "a-msg a-msg-team" : "a-msg"}>
                  <span className="a-muted">
                    {m.senderId === view.profileId ? profile?.name : member?.name} · {when(m.createdAt)}
                  </span>
                  <br />
                  {m.kind === "gift" ? <em>sent a gift ({m.giftId})</em> : m.body}
                </li>
              ),
            )}
          </ol>
          {mine ? (
            <form method="post" className="a-reply">
              <input type="hidden" name="intent" value="reply" />
              <input type="hidden" name="clientId" value={clientId} />
              <label className="a-field">
                <span>Reply as {profile?.name}</span>
                <textarea
                  name="body"
                  required
                  rows={4}
                  maxLength={view.messageLength}
                  defaultValue={result && "body" in result ? result.body : ""}
                />
              </label>
              <p className="a-muted">
                No meeting, no contact details or links, no money or gifts outside the site; the profile&rsquo;s own age
                and town only.
              </p>
              <button type="submit" className="a-btn">
                Send as {profile?.name}
              </button>
              <LiveScript part="typing" />
            </form>
          ) : null}
          {mine ? (
            <form method="post">
              <input type="hidden" name="intent" value="release" />
              <button type="submit" className="a-btn a-btn-quiet">
                Release
              </button>
            </form>
          ) : null}
        </section>
        <aside className="a-stack">
          {member ? (
            <section className="a-card" aria-label="Member">
              <h2>{member.name}</h2>
              <p>
                {member.age} · {member.gender} · {[member.city, member.country].filter(Boolean).join(", ")}
              </p>
              {member.aboutMe ? <p className="a-pre">{member.aboutMe}</p> : null}
              <p className="a-muted">Member since {when(member.memberSince)}</p>
            </section>
          ) : null}
          <section className="a-card" aria-label="Persona">
            <h2>Persona: {profile?.name}</h2>
            <p>
              {profile?.age} · {profile?.gender} · {[profile?.city, profile?.country].filter(Boolean).join(", ")}
            </p>
            <p className="a-pre">{persona?.notes || "No persona notes yet."}</p>
          </section>
          <section className="a-card" aria-label="Team notes">
            <h2>Team notes on {member?.name}</h2>
            <form method="post">
              <input type="hidden" name="intent" value="notes" />
              <label className="a-field">
                <span>
                  {view.notes ? `Last by ${view.notes.by ?? "?"}, ${when(view.notes.updatedAt)}` : "Nothing noted yet"}
                </span>
                <textarea name="notes" rows={4} maxLength={NOTES_MAX} defaultValue={view.notes?.notes ?? ""} />
              </label>
              <button type="submit" className="a-btn a-btn-quiet">
                Save notes
              </button>
            </form>
          </section>
          <section className="a-card" aria-label="Earlier conversations">
            <h2>Other conversations with team-run profiles</h2>
            {view.earlier.length === 0 ? (
              <p className="a-muted">None.</p>
            ) : (
              <ul>
                {view.earlier.map((e) => (
                  <li key={e.conversationId}>
                    <a href={`/admin/inbox/${encodeURIComponent(e.conversationId)}`}>{e.profileName}</a> · {e.credits}{" "}
                    credits{e.waitingSince ? " · waiting" : ""}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </aside>
      </div>
    </>
  );
}
