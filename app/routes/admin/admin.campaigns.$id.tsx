/**
 * One campaign (admin, support; decision 183): the form (a draft changes until it is sent), the
 * audience counted before sending, a preview as a given member gets it, a test to oneself, send now or
 * at a time, pause and resume. Plain forms, no JavaScript; the rules are the campaigns model's.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { LANGUAGES } from "~/lib/constants";
import { Flash } from "~/components/admin/Flash";
import { when } from "~/components/admin/labels";
import {
  BODY_MAX,
  TITLE_MAX,
  TRANSITIONS,
  audienceOf,
  brandChoices,
  campaignFormSchema,
  changeStatus,
  formValues,
  getCampaign,
  previewForMember,
  saveCampaign,
  testCampaign,
  type Transition,
} from "~/models/admin/campaigns.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { guardAction, guardAnswer } from "~/models/admin/guard.server";
import { ConfirmStep } from "~/components/admin/Confirm";
import { statusClass } from "./admin.campaigns._index";
import { LANGUAGE_NAMES } from "~/lib/i18n";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "campaigns";

const idOf = (param: string | undefined) => (/^[1-9][0-9]{0,9}$/.test(param ?? "") ? Number(param) : null);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const brands = await brandChoices(context.env.DB);
  if (params.id === "new") return { c: null, audience: null, brands, done: null, title: "New campaign" };
  const id = idOf(params.id);
  const c = id ? await getCampaign(context.env.DB, id) : null;
  if (!c) throw new Response("There is no campaign with this id.", { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return {
    c,
    audience: await audienceOf(context.env.DB, c),
    brands,
    done: done && done in DONE ? DONE[done as keyof typeof DONE] : null,
    title: `Campaign ${c.id}`,
  };
}

const DONE = {
  saved: "Saved.",
  schedule: "Scheduled: it starts sending at the time given (checked every hour).",
  unschedule: "No longer scheduled: it is a draft again.",
  send: "Sending started: the audience is mailed page by page.",
  pause: "Paused: sending stops after the page in progress.",
  resume: "Sending again from where it stopped.",
} as const;

const statusForm = z.object({
  intent: z.enum(Object.keys(TRANSITIONS) as [Transition, ...Transition[]]),
  sendAt: z.string().optional(),
});

/** A day and time from the form (UTC) in the future, or null. */
function futureTime(v: string | undefined): number | null {
  if (!v || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v)) return null;
  const at = Date.parse(`${v}:00Z`) / 1000;
  return Number.isFinite(at) && at > Date.now() / 1000 ? at : null;
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = await readForm(request, context);
  const intent = String(form.get("intent") ?? "");
  const id = params.id === "new" ? null : idOf(params.id);
  if (params.id !== "new" && id === null) throw new Response("There is no campaign with this id.", { status: 404 });

  if (intent === "save") {
    const values = formValues(form);
    const parsed = campaignFormSchema.safeParse(values);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const i of parsed.error.issues) {
        const key = i.path.length === 2 ? `${String(i.path[0])}_${String(i.path[1])}` : String(i.path[0] ?? "form");
        errors[key] ??= i.message;
      }
      return data({ errors, values }, { status: 400 });
    }
    const saved = await saveCampaign(context.env.DB, operator, id, parsed.data);
    if (!saved.ok) return data({ errors: saved.errors, values }, { status: 400 });
    return redirect(`/admin/campaigns/${saved.id}?done=saved`);
  }
  const fail = (error: string, status = 400) => data({ error }, { status });
  if (id === null) return fail("Save the campaign first.");
  if (intent === "preview") {
    const who = String(form.get("member") ?? "").trim();
    if (!who) return fail("Give a member's id or e-mail address.");
    const preview = await previewForMember(context.env, operator, id, who);
    return preview ? { preview } : fail("No member of this campaign's brand has that id or e-mail address.", 404);
  }
  if (intent === "test") {
    return (await testCampaign(context.env, operator, id))
      ? { done: `A test was mailed to ${operator.email}.` }
      : fail("There is no campaign with this id.", 404);
  }
  const parsed = statusForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return fail("That action is not known.");
  let sendAt: number | null = null;
  if (parsed.data.intent === "schedule") {
    sendAt = futureTime(parsed.data.sendAt);
    if (sendAt === null) return fail("Give a day and time in the future (UTC).");
  }
  if (parsed.data.intent === "send" || parsed.data.intent === "schedule") {
    // A mass mailing: confirmed with its size, the code asked again, a second admin above the threshold.
    const c = await getCampaign(context.env.DB, id);
    if (!c) return fail("There is no campaign with this id.", 404);
    const { eligible } = await audienceOf(context.env.DB, c);
    const verb = parsed.data.intent === "send" ? "now" : `at ${when(sendAt!)} UTC`;
    const wait = guardAnswer(
      await guardAction(context.env, operator, form, {
        kind: "campaign.send",
        impact: `Mail ${eligible.toLocaleString("en")} members ${verb} (campaign ${id}).`,
        size: eligible,
        target: { type: "campaign", id: String(id) },
        params: { intent: parsed.data.intent, sendAt },
      }),
    );
    if (wait) return wait;
  }
  const changed = await changeStatus(context.env, operator, id, parsed.data.intent, sendAt);
  return changed
    ? redirect(`/admin/campaigns/${id}?done=${parsed.data.intent}`)
    : fail("Nothing changed: the campaign's status no longer allows that (reload the page).", 409);
}

export default function AdminCampaign() {
  const { c, audience, brands, done } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors: Record<string, string> = (result && "errors" in result ? result.errors : undefined) ?? {};
  const posted = (result && "values" in result ? result.values : null) as Record<string, unknown> | null;
  const val = (k: string): string => {
    if (posted) return typeof posted[k] === "string" ? (posted[k] as string) : "";
    if (!c) return "";
    const v = (c as unknown as Record<string, unknown>)[k];
    return v === null || v === undefined ? "" : String(v);
  };
  const textVal = (kind: "title" | "body", l: string): string => {
    const src = posted ? (posted[kind] as Record<string, string>) : c?.[kind];
    return src?.[l] ?? "";
  };
  const editable = !c || c.status === "draft";
  const err = (k: string) =>
    errors[k] ? (
      <span className="a-field-error" id={`err-${k}`}>
        {errors[k]}
      </span>
    ) : null;
  const described = (k: string) => (errors[k] ? { "aria-invalid": true, "aria-describedby": `err-${k}` } : {});
  const flash =
    result && "error" in result && result.error
      ? { error: result.error }
      : result && "done" in result && result.done
        ? { done: result.done }
        : null;
  const preview = result && "preview" in result ? result.preview : null;
  const confirm = result && "confirm" in result ? result.confirm : null;
  const brandLng = (id: string) => brands.find((b) => String(b.id) === id)?.lng;

  return (
    <>
      <p>
        <a href="/admin/campaigns">← Campaigns</a>
      </p>
      <h1>
        {c ? `Campaign ${c.id}` : "New campaign"} {c ? <span className={statusClass(c.status)}>{c.status}</span> : null}
      </h1>
      {done && !result ? (
        <p className="a-ok" role="status">
          {done}
        </p>
      ) : null}
      <Flash result={flash} />
      {Object.keys(errors).length ? (
        <p className="a-error" role="alert">
          {errors.form ?? "Not saved: see the fields marked below."}
        </p>
      ) : null}

      {c ? (
        <div className="a-tiles">
          <div className="a-tile">
            Audience
            <strong>{audience!.total}</strong>
            <span className="a-muted">members match the filter</span>
          </div>
          <div className="a-tile">
            Would be mailed
            <strong>{audience!.eligible}</strong>
            <span className="a-muted">the others are switched off, invisible, suspended, not activated or deleted</span>
          </div>
          <div className="a-tile">
            Sent / skipped / failed
            <strong>
              {c.sent} / {c.skipped} / {c.failed}
            </strong>
            <span className="a-muted">{c.sendAt ? `from ${when(c.sendAt)} UTC` : "not sent yet"}</span>
          </div>
        </div>
      ) : null}

      {confirm && c ? <ConfirmStep confirm={confirm} cancel={`/admin/campaigns/${c.id}`} /> : null}
      {c ? (
        <div className="a-card a-actions">
          <h2>Send</h2>
          {c.status === "draft" || c.status === "scheduled" ? (
            <form method="post">
              <input type="hidden" name="intent" value="send" />
              <button className="a-btn" type="submit">
                Send now to {audience!.eligible} members
              </button>
            </form>
          ) : null}
          {c.status === "draft" ? (
            <form method="post" className="a-filters">
              <input type="hidden" name="intent" value="schedule" />
              <label className="a-field">
                <span>Send at (UTC)</span>
                <input type="datetime-local" name="sendAt" required />
              </label>
              <button className="a-btn a-btn-quiet" type="submit">
                Schedule
              </button>
            </form>
          ) : null}
          {c.status === "scheduled" ? (
            <form method="post">
              <input type="hidden" name="intent" value="unschedule" />
              <p>Scheduled for {c.sendAt ? when(c.sendAt) : "?"} UTC.</p>
              <button className="a-btn a-btn-quiet" type="submit">
                Back to draft
              </button>
            </form>
          ) : null}
          {c.status === "sending" ? (
            <form method="post">
              <input type="hidden" name="intent" value="pause" />
              <button className="a-btn a-btn-quiet" type="submit">
                Pause
              </button>
            </form>
          ) : null}
          {c.status === "paused" ? (
            <form method="post">
              <input type="hidden" name="intent" value="resume" />
              <button className="a-btn" type="submit">
                Resume
              </button>
            </form>
          ) : null}
          {c.status === "done" ? <p>Every page of the audience is queued; the counters follow the mails.</p> : null}
          <form method="post">
            <input type="hidden" name="intent" value="test" />
            <button className="a-btn a-btn-quiet" type="submit">
              Send a test to me
            </button>
          </form>
        </div>
      ) : null}

      {c ? (
        <div className="a-card">
          <h2>Preview</h2>
          <form method="post" className="a-filters">
            <input type="hidden" name="intent" value="preview" />
            <label className="a-field">
              <span>Member id or e-mail</span>
              <input name="member" required maxLength={254} />
            </label>
            <button className="a-btn a-btn-quiet" type="submit">
              Preview
            </button>
          </form>
          {preview ? (
            <div className="a-grid2">
              <section aria-label="Mail preview">
                <h3>Mail ({LANGUAGE_NAMES[preview.language] ?? preview.language})</h3>
                {preview.refused ? <p className="a-error">This member would get nothing: {preview.refused}.</p> : null}
                <p>
                  To <code>{preview.mail.to}</code>
                  <br />
                  Subject: <strong>{preview.mail.subject}</strong>
                </p>
                <pre className="a-mail">{preview.mail.text}</pre>
              </section>
              <section aria-label="Push preview">
                <h3>Push</h3>
                {preview.push ? (
                  <div className="a-push">
                    <strong>{preview.push.title}</strong>
                    <p>{preview.push.body}</p>
                    <span className="a-muted">Opens {preview.push.url}</span>
                  </div>
                ) : (
                  <p className="a-muted">No push: campaigns with the standard texts go by mail only.</p>
                )}
              </section>
            </div>
          ) : null}
        </div>
      ) : null}

      <form method="post" className="a-card" noValidate>
        <h2>{editable ? "Campaign" : "Campaign (sent campaigns cannot be changed)"}</h2>
        <input type="hidden" name="intent" value="save" />
        <fieldset disabled={!editable} className="a-plain">
          <div className="a-grid2">
            <label className="a-field">
              <span>Brand</span>
              <select name="brandId" defaultValue={val("brandId")} {...described("brandId")}>
                <option value="">Choose…</option>
                {brands.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name} ({b.lng})
                  </option>
                ))}
              </select>
              {err("brandId")}
            </label>
            <label className="a-field">
              <span>Type</span>
              <select name="type" defaultValue={val("type") || "promotions"} {...described("type")}>
                <option value="promotions">Promotion</option>
                <option value="news">News</option>
              </select>
              {err("type")}
            </label>
            <label className="a-field">
              <span>Link (a path on the brand's site)</span>
              <input name="path" defaultValue={val("path") || "/"} maxLength={512} {...described("path")} />
              {err("path")}
            </label>
          </div>
          <h3>Audience</h3>
          <div className="a-grid2">
            <label className="a-field">
              <span>Language</span>
              <select name="language" defaultValue={val("language")} {...described("language")}>
                <option value="">Every language</option>
                {LANGUAGES.map((l) => (
                  <option key={l} value={l}>
                    {LANGUAGE_NAMES[l]}
                  </option>
                ))}
              </select>
              {err("language")}
            </label>
            <label className="a-field">
              <span>Country (two letters, empty: all)</span>
              <input name="country" defaultValue={val("country")} maxLength={2} {...described("country")} />
              {err("country")}
            </label>
            <label className="a-field">
              <span>Members</span>
              <select name="plan" defaultValue={val("plan") || "all"} {...described("plan")}>
                <option value="all">Free and premium</option>
                <option value="free">Free only</option>
                <option value="premium">Premium only</option>
              </select>
              {err("plan")}
            </label>
            <label className="a-field">
              <span>Active in the last … days (empty: any time)</span>
              <input
                name="activeDays"
                inputMode="numeric"
                defaultValue={val("activeDays")}
                {...described("activeDays")}
              />
              {err("activeDays")}
            </label>
          </div>
          <h3>Texts</h3>
          <p className="a-muted">
            The brand's own language is needed; a member whose language has no text gets the brand's. Plain text; the
            mail adds the greeting, the button to the link and the unsubscribe lines.
          </p>
          {LANGUAGES.map((l) => (
            <fieldset key={l} className="a-lang">
              <legend>
                {LANGUAGE_NAMES[l]}
                {c && brandLng(String(c.brandId)) === l ? " (the brand's language)" : ""}
              </legend>
              <label className="a-field">
                <span>Subject</span>
                <input
                  name={`title_${l}`}
                  lang={l}
                  defaultValue={textVal("title", l)}
                  maxLength={TITLE_MAX}
                  {...described(`title_${l}`)}
                />
                {err(`title_${l}`)}
              </label>
              <label className="a-field">
                <span>Text</span>
                <textarea
                  name={`body_${l}`}
                  lang={l}
                  rows={3}
                  defaultValue={textVal("body", l)}
                  maxLength={BODY_MAX}
                  {...described(`body_${l}`)}
                />
                {err(`body_${l}`)}
              </label>
            </fieldset>
          ))}
          <button className="a-btn" type="submit">
            Save
          </button>
        </fieldset>
      </form>
    </>
  );
}
