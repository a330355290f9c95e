/**
 * Photo review (moderator, admin; decision 175): pending photos in a grid, oldest first, paged by
 * keyset. Approve (audited) or reject (a remove_photo decision with its statement of reasons), each a
 * plain form; both are refused once the photo is no longer pending.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Flash } from "~/components/admin/Flash";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { paragraph } from "~/lib/text";
import { linkOrigin } from "~/models/brand.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { approvePhoto, parseCursor, pendingPhotos, rejectPhoto } from "~/models/admin/photos.server";
import { TERMS_RULES } from "~/models/moderation.server";
import { RULE_LABELS, ageOf } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "photos";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const after = parseCursor(new URL(request.url).searchParams.get("after"));
  return {
    ...(await pendingPhotos(context.env.DB, after)),
    paged: after !== null,
    rules: TERMS_RULES,
    now: Math.floor(Date.now() / 1000),
    title: "Photos",
  };
}

const photoId = z.string().regex(/^[\w-]{1,64}$/);
const ReviewForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), photo: photoId }),
  z.object({
    intent: z.literal("reject"),
    photo: photoId,
    rule: z.enum(TERMS_RULES),
    facts: paragraph(z.string().min(10).max(2000)),
  }),
]);

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const parsed = ReviewForm.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) return { error: "A rejection needs the rule and the facts (at least 10 characters)." };
  const input = parsed.data;
  if (input.intent === "approve") {
    const ok = await approvePhoto(context.env.DB, operator, input.photo);
    return ok ? { done: "Approved: the photo is shown to others." } : { error: "This photo is no longer pending." };
  }
  const result = await rejectPhoto(
    context.env,
    operator,
    input.photo,
    { rule: input.rule, facts: input.facts },
    { origin: (domain) => linkOrigin({ domain }, context.env, request) },
  );
  return result.ok
    ? { done: "Rejected: the photo is removed and the member has the statement of reasons." }
    : { error: "This photo is no longer pending." };
}

export default function AdminPhotos() {
  const { photos, pending, next, paged, rules, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>Photos</h1>
      <Flash result={result} />
      <p className="a-muted">
        {pending} {pending === 1 ? "photo waits" : "photos wait"} for review, oldest first.
        {paged ? (
          <>
            {" "}
            <a href="/admin/photos">Back to the oldest</a>
          </>
        ) : null}
      </p>
      {photos.length === 0 ? <p className="a-muted">No photos wait for review.</p> : null}
      <ul className="a-photo-grid">
        {photos.map((p) => (
          <li key={p.id} className="a-card a-photo">
            <a href={`/admin/photo/${p.id}/full`}>
              <img
                src={`/admin/photo/${p.id}/thumb`}
                alt={`Uploaded by ${p.name}`}
                width={240}
                height={240}
                loading="lazy"
              />
            </a>
            <p>
              <strong>{p.name}</strong> <span className="a-muted">· {p.brand}</span>
              <br />
              <span className="a-muted">
                waiting {ageOf(now - p.createdAt)}
                {p.isMain ? " · main photo" : ""}
                {p.isPrivate ? " · private" : ""}
                {p.mode === "after" ? " · already shown" : " · hidden until approved"}
              </span>
            </p>
            <form method="post">
              <input type="hidden" name="intent" value="approve" />
              <input type="hidden" name="photo" value={p.id} />
              <button type="submit" className="a-btn">
                Approve
              </button>
            </form>
            <details>
              <summary>Reject…</summary>
              <form method="post">
                <input type="hidden" name="intent" value="reject" />
                <input type="hidden" name="photo" value={p.id} />
                <label className="a-field">
                  <span>Rule broken</span>
                  <select name="rule" required defaultValue="">
                    <option value="" disabled>
                      Choose…
                    </option>
                    {rules.map((r) => (
                      <option key={r} value={r}>
                        {RULE_LABELS[r]}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="a-field">
                  <span>Facts (shown to the member)</span>
                  <textarea name="facts" required minLength={10} maxLength={2000} rows={3} />
                </label>
                <button type="submit" className="a-btn a-btn-quiet">
                  Reject with a statement
                </button>
              </form>
            </details>
          </li>
        ))}
      </ul>
      {next ? (
        <p>
          <a href={`/admin/photos?after=${encodeURIComponent(next)}`}>Next page →</a>
        </p>
      ) : null}
    </>
  );
}
