/**
 * The console's campaigns (admin, support; decision 183): write a promotion or news in the brand's
 * languages, choose the audience, count it, preview it as a member would get it, send a test to
 * oneself, send now or at a time, pause and resume. Every change is one guarded statement on the
 * status before it with its audit row in the same batch; sending itself is campaign-send.server.ts.
 */
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, schema } from "../../../db/client";
import type { CampaignStatus } from "../../../db/schema";
import { LANGUAGES } from "~/lib/constants";
import { nowS } from "~/lib/dates";
import { safeRedirect } from "~/lib/request.server";
import {
  brandLanguage,
  countAudience,
  startPaging,
  type CampaignRow,
  type CampaignSendEnv,
} from "../campaign-send.server";
import { previewCampaign, sendCampaignTest, type NotifyEnv } from "../notify.server";
import { auditAfterChange, auditStatement, type Actor } from "./audit.server";

export const CAMPAIGNS_PAGE = 50;
export const TITLE_MAX = 150;
export const BODY_MAX = 4000;

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** The campaign form (plain post): the texts come as title_<lng> and body_<lng>. */
export const campaignFormSchema = z
  .object({
    brandId: z.coerce.number({ message: "Choose a brand." }).int().positive("Choose a brand.").max(999_999_999),
    type: z.enum(["promotions", "news"], { message: "Choose promotion or news." }),
    path: z
      .string()
      .trim()
      .max(512, "At most 512 characters.")
      .transform((p, ctx) => {
        const safe = safeRedirect(p || "/", "");
        if (!safe) ctx.addIssue({ code: "custom", message: "A path on the brand's own site, such as /credits." });
        return safe;
      }),
    language: z.preprocess(blank, z.enum(LANGUAGES, { message: "Unknown language." }).optional()),
    country: z.preprocess(
      (v) => (typeof v === "string" ? blank(v.trim().toUpperCase()) : v),
      z
        .string()
        .regex(/^[A-Z]{2}$/, "A two-letter country code, e.g. DE.")
        .optional(),
    ),
    plan: z.enum(["all", "free", "premium"], { message: "Choose everyone, free or premium members." }),
    activeDays: z.preprocess(
      blank,
      z.coerce
        .number({ message: "A number of days from 1 to 3650." })
        .int("A number of days from 1 to 3650.")
        .min(1, "A number of days from 1 to 3650.")
        .max(3650, "A number of days from 1 to 3650.")
        .optional(),
    ),
    title: z.record(
      z.enum(LANGUAGES),
      z.string().trim().max(TITLE_MAX, `A subject of at most ${TITLE_MAX} characters.`),
    ),
    body: z.record(z.enum(LANGUAGES), z.string().trim().max(BODY_MAX, `A text of at most ${BODY_MAX} characters.`)),
  })
  .superRefine((f, ctx) => {
    for (const l of LANGUAGES) {
      if (!!f.title[l] !== !!f.body[l])
        ctx.addIssue({
          code: "custom",
          path: [`title_${l}`],
          message: "Give both the subject and the text, or neither.",
        });
    }
  });
export type CampaignForm = z.infer<typeof campaignFormSchema>;

/** The form's fields as the schema reads them (title_de → title.de). */
export function formValues(form: FormData) {
  const values: Record<string, unknown> = {};
  const title: Record<string, string> = {};
  const body: Record<string, string> = {};
  for (const [k, v] of form) {
    if (typeof v !== "string") continue;
    const m = /^(title|body)_([a-z]{2})$/.exec(k);
    if (m && (LANGUAGES as readonly string[]).includes(m[2]!)) (m[1] === "title" ? title : body)[m[2]!] = v;
    else if (!m) values[k] = v;
  }
  return { ...values, title, body };
}

const texts = (r: Partial<Record<string, string>>) =>
  Object.fromEntries(Object.entries(r).filter(([, v]) => v)) as Record<string, string>;

type Saved = { ok: true; id: number } | { ok: false; errors: Record<string, string> };

/**
 * Creates a campaign (a draft) or changes a draft: the brand must exist and the texts must include
 * the brand's own language (every member falls back to it). Audited in the same batch.
 */
export async function saveCampaign(d1: D1Database, actor: Actor, id: number | null, f: CampaignForm): Promise<Saved> {
  const db = getDb(d1);
  const { brands, campaigns: C } = schema;
  const [brand] = await db
    .select({ id: brands.id, lng: brands.domainLanguage, name: brands.name })
    .from(brands)
    .where(eq(brands.id, f.brandId));
  if (!brand) return { ok: false, errors: { brandId: "Choose a brand." } };
  const own = brandLanguage(brand.lng);
  if (!f.title[own as keyof typeof f.title])
    return {
      ok: false,
      errors: { [`title_${own}`]: `${brand.name} speaks ${own}: the subject and text in it are needed.` },
    };
  const values = {
    brandId: f.brandId,
    type: f.type,
    path: f.path,
    language: f.language ?? null,
    country: f.country ?? null,
    plan: f.plan,
    activeDays: f.activeDays ?? null,
    title: texts(f.title),
    body: texts(f.body),
  };
  const now = nowS();
  if (id === null) {
    const [row] = await db.batch([
      db
        .insert(C)
        .values({ ...values, createdBy: actor.id, createdAt: now, updatedAt: now })
        .returning({ id: C.id }),
      // The new row's id is the last insert's rowid: the audit row names it in the same batch.
      db
        .insert(schema.auditLog)
        .select(
          sql`SELECT NULL, ${now}, ${actor.id}, ${actor.role}, 'campaign.create', 'campaign', CAST(last_insert_rowid() AS TEXT), '', NULL, ${JSON.stringify(values)}`,
        ),
    ]);
    return { ok: true, id: row[0]!.id };
  }
  const [res] = await db.batch([
    db
      .update(C)
      .set({ ...values, updatedAt: now })
      .where(and(eq(C.id, id), eq(C.status, "draft"))),
    auditAfterChange(
      db,
      actor,
      { action: "campaign.edit", targetType: "campaign", targetId: String(id), after: values },
      now,
    ),
  ]);
  return res.meta.changes === 1
    ? { ok: true, id }
    : { ok: false, errors: { form: "Only a draft can be changed (this one is no longer a draft)." } };
}

/** What each status change may start from and leads to. */
export const TRANSITIONS = {
  schedule: { from: ["draft"], to: "scheduled" },
  unschedule: { from: ["scheduled"], to: "draft" },
  send: { from: ["draft", "scheduled"], to: "sending" },
  pause: { from: ["sending"], to: "paused" },
  resume: { from: ["paused"], to: "sending" },
} as const satisfies Record<string, { from: readonly CampaignStatus[]; to: CampaignStatus }>;
export type Transition = keyof typeof TRANSITIONS;

/**
 * A status change, guarded on the statuses it may start from, with its audit row in the same batch
 * (none when the guard refused). Sending and resuming then start paging. False: nothing changed.
 */
export async function changeStatus(
  env: CampaignSendEnv,
  actor: Actor,
  id: number,
  intent: Transition,
  sendAt: number | null = null,
  now = nowS(),
): Promise<boolean> {
  const db = getDb(env.DB);
  const C = schema.campaigns;
  const t = TRANSITIONS[intent];
  const set: Partial<CampaignRow> = { status: t.to, updatedAt: now };
  if (intent === "schedule") set.sendAt = sendAt;
  if (intent === "send") set.sendAt = now;
  const [res] = await db.batch([
    db
      .update(C)
      .set(set)
      .where(and(eq(C.id, id), inArray(C.status, [...t.from]))),
    auditAfterChange(
      db,
      actor,
      {
        action: `campaign.${intent}`,
        targetType: "campaign",
        targetId: String(id),
        after: { status: t.to, ...(sendAt ? { sendAt } : {}) },
      },
      now,
    ),
  ]);
  if (res.meta.changes !== 1) return false;
  if (t.to === "sending") await startPaging(env, id);
  return true;
}

/** "Send a test to me", audited (nothing else changes). */
export async function testCampaign(env: NotifyEnv, actor: Actor & { email: string; name: string }, id: number) {
  const sent = await sendCampaignTest(env, id, actor);
  if (sent)
    await auditStatement(getDb(env.DB), actor, {
      action: "campaign.test",
      targetType: "campaign",
      targetId: String(id),
      after: { to: actor.email },
    });
  return sent;
}

/** The preview for one member, audited: it shows a member's address and language to the operator. */
export async function previewForMember(env: NotifyEnv, actor: Actor, id: number, who: string) {
  const preview = await previewCampaign(env, id, who.slice(0, 254));
  if (preview)
    await auditStatement(getDb(env.DB), actor, {
      action: "campaign.preview",
      targetType: "campaign",
      targetId: String(id),
      after: { member: preview.memberId },
    });
  return preview;
}

/** Newest first; `before` pages on by id. */
export function listCampaigns(d1: D1Database, before?: number) {
  const { campaigns: C, brands } = schema;
  return getDb(d1)
    .select({ c: C, brandName: sql<string>`${brands.name}`.as("brand_name") })
    .from(C)
    .innerJoin(brands, eq(brands.id, C.brandId))
    .where(before ? lt(C.id, before) : undefined)
    .orderBy(desc(C.id))
    .limit(CAMPAIGNS_PAGE);
}

export async function getCampaign(d1: D1Database, id: number) {
  const [row] = await getDb(d1).select().from(schema.campaigns).where(eq(schema.campaigns.id, id));
  return row ?? null;
}

/** The audience of a campaign right now: everyone matching its filter and who of them would be mailed. */
export const audienceOf = (d1: D1Database, c: CampaignRow) => countAudience(d1, c);

export async function brandChoices(d1: D1Database) {
  const { brands } = schema;
  const rows = await getDb(d1)
    .select({ id: brands.id, name: brands.name, lng: brands.domainLanguage })
    .from(brands)
    .orderBy(brands.id);
  return rows.map((b) => ({ ...b, lng: brandLanguage(b.lng) }));
}
