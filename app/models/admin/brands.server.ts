/**
 * Brands in the console (admin; decision 181): list, read for the form, validate with
 * the field list (brand-fields.ts), save or add with the audit row in the same D1 batch, then drop this
 * isolate's brand cache so the site acts on the change at once (other isolates within BRAND_CACHE_MS).
 */
import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { asc, count, eq, max, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, schema } from "../../../db/client";
import { nowS } from "~/lib/dates";
import { forgetBrands, needsImpressum, type Brand, type Company } from "../brand.server";
import { auditStatement, type Actor } from "./audit.server";
import { lazy } from "~/lib/lazy";
import { brandFields, companyFieldset, COMPANY_PREFIX, schemaOf } from "./brand-fields";

const { brands, companies, users, packagePrices } = schema;

/** Every brand with its company's name and how many accounts it has (the unique (brand_id, email) index counts them). */
export async function listBrands(d1: D1Database) {
  const db = getDb(d1);
  const [rows, counts] = await db.batch([
    db
      .select({
        id: brands.id,
        name: brands.name,
        hostname: brands.hostname,
        isDefault: brands.isDefault,
        niche: brands.niche,
        domainLanguage: brands.domainLanguage,
        currency: brands.currency,
        signups: brands.signups,
        // Aliased: a D1 batch keys columns by name, and brands have a `name` too (decision 177).
        company: sql<string>`${companies.name}`.as("company_name"),
      })
      .from(brands)
      .innerJoin(companies, eq(companies.id, brands.companyId))
      .orderBy(asc(brands.id)),
    db
      .select({ brandId: users.brandId, n: count().as("n") })
      .from(users)
      .groupBy(users.brandId),
  ]);
  const byBrand = new Map(counts.map((c) => [c.brandId, c.n]));
  return rows.map((r) => ({ ...r, accounts: byBrand.get(r.id) ?? 0 }));
}

/** A brand with its company, read fresh (never the cache: the form shows what is stored). */
export async function brandForForm(d1: D1Database, id: number) {
  const [row] = await getDb(d1)
    .select()
    .from(brands)
    .innerJoin(companies, eq(companies.id, brands.companyId))
    .where(eq(brands.id, id));
  return row ? { brand: row.brands, company: row.companies } : null;
}

/** The default brand: a new brand starts as a copy of it. */
export async function defaultBrand(d1: D1Database) {
  const [row] = await getDb(d1)
    .select()
    .from(brands)
    .innerJoin(companies, eq(companies.id, brands.companyId))
    .orderBy(asc(brands.isDefault), asc(brands.id))
    .where(eq(brands.isDefault, true))
    .limit(1);
  return row ? { brand: row.brands, company: row.companies } : null;
}

export async function companyChoices(d1: D1Database) {
  return getDb(d1).select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.id));
}

/** The currencies packages are priced in: a brand selling in another could not sell anything. */
export async function currenciesSold(d1: D1Database): Promise<string[]> {
  const P = packagePrices;
  return (await getDb(d1).selectDistinct({ c: P.currency }).from(P).orderBy(P.currency)).map((r) => r.c);
}

/** The company fields a German or Austrian brand's Impressum needs (§ 5 DDG, § 7 JMStV, § 36 VSBG; decision 213). */
const IMPRESSUM_FIELDS = [
  "registerCourt",
  "managingDirectors",
  "youthOfficerName",
  "youthOfficerEmail",
  "disputeResolution",
] as const satisfies readonly (keyof Company)[];

/**
 * The Impressum fields the company still lacks for such a brand, by field name (a "willing" statement
 * also names its board). Empty when the brand needs no Impressum or nothing is missing.
 */
export function missingImpressum(
  domainLanguage: string,
  company: Pick<Company, "country" | (typeof IMPRESSUM_FIELDS)[number] | "disputeBoard">,
): (keyof Company)[] {
  if (!needsImpressum(domainLanguage, company.country)) return [];
  const missing: (keyof Company)[] = IMPRESSUM_FIELDS.filter((f) => !company[f].trim());
  if (company.disputeResolution === "willing" && !company.disputeBoard.trim()) missing.push("disputeBoard");
  return missing;
}

type BrandValues = Partial<Omit<Brand, "id" | "isDefault">>;
type CompanyValues = Partial<Omit<Company, "id" | "added">>;

// Built on first use (decision 234): the console's rules are no part of the Worker's start.
const brandSchema = lazy(() => schemaOf(brandFields()));
const companySchema = lazy(() => schemaOf(companyFieldset().fields, COMPANY_PREFIX));

/** What changed, column by column (JSON columns compared by value). */
function diff<T extends object>(before: T, after: Partial<T>) {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(after)) {
    const old = (before as Record<string, unknown>)[k];
    if (JSON.stringify(old) !== JSON.stringify(v)) {
      b[k] = old;
      a[k] = v;
    }
  }
  return Object.keys(a).length ? { before: b, after: a } : null;
}

export type SaveResult =
  | { ok: true; id: number; changed: boolean }
  | { ok: false; reply: SubmissionResult<string[]>; status: 400 | 404 | 409 };

/**
 * Validates a posted brand form and saves it: `id` null adds a brand (a copy of the default brand
 * with the form's values), else updates that brand and, when its company stays the same, that
 * company's details. One D1 batch holds the change(s) and their audit rows (`brand.create`,
 * `brand.update`, `company.update`, with the changed fields before/after). Nothing changed, nothing written.
 */
export async function saveBrand(d1: D1Database, actor: Actor, id: number | null, form: FormData): Promise<SaveResult> {
  const db = getDb(d1);
  const existing = id === null ? null : await brandForForm(d1, id);
  if (id !== null && !existing)
    return { ok: false, status: 404, reply: { status: "error", error: { "": ["No such brand."] } } };
  const editsCompany = existing !== null && String(form.get("companyId") ?? "") === String(existing.brand.companyId);
  const [sold, choices, taken] = await Promise.all([
    currenciesSold(d1),
    companyChoices(d1),
    db
      .select({ id: brands.id, hostname: brands.hostname })
      .from(brands)
      .where(id === null ? undefined : ne(brands.id, id)),
  ]);
  const takenHosts = new Set(taken.map((t) => t.hostname));
  // One Mollie account is one company's: another company's account name is refused here.
  const takenAccounts = new Set(
    editsCompany
      ? (
          await db
            .select({ account: companies.mollieAccount })
            .from(companies)
            .where(ne(companies.id, existing!.company.id))
        ).flatMap((c) => (c.account ? [c.account] : []))
      : [],
  );
  // The checks that need the database refine their own field, so their message shows beside the others.
  const base = editsCompany ? brandSchema().merge(companySchema()) : brandSchema();
  const submission = parseWithZod(form, {
    schema: base.extend({
      currency: base.shape.currency!.refine(
        (c: string) => sold.includes(c),
        (c: string) => ({ message: `No package is priced in ${c} (priced: ${sold.join(", ")}).` }),
      ),
      ...(editsCompany
        ? {
            [`${COMPANY_PREFIX}mollieAccount`]: companySchema().shape[`${COMPANY_PREFIX}mollieAccount`]!.refine(
              (a: string | null) => a === null || !takenAccounts.has(a),
              "Another company uses this Mollie account.",
            ),
          }
        : {}),
      hostname: base.shape.hostname!.refine(
        (h: string) => !takenHosts.has(h),
        "Another brand answers on this host name.",
      ),
      companyId: z
        .string()
        .regex(/^\d{1,9}$/, "Choose a company.")
        .transform(Number)
        .refine((c) => choices.some((x) => x.id === c), "Choose a company."),
    }),
  });
  if (submission.status !== "success") return { ok: false, status: 400, reply: submission.reply() };

  const values = submission.value as Record<string, unknown>;
  const brandValues: BrandValues = { companyId: values.companyId as number };
  for (const f of brandFields()) (brandValues as Record<string, unknown>)[f.name] = values[f.name];
  const companyValues: CompanyValues = {};
  if (editsCompany)
    for (const f of companyFieldset().fields)
      (companyValues as Record<string, unknown>)[f.name] = values[COMPANY_PREFIX + f.name];
  // A German or Austrian brand is not saved without its Impressum's company details (decision 213).
  const company = editsCompany
    ? { ...existing.company, ...companyValues }
    : (await db.select().from(companies).where(eq(companies.id, brandValues.companyId!)))[0]!;
  const missing = missingImpressum(String(brandValues.domainLanguage), company);
  if (missing.length > 0) {
    const why = "Required for a German or Austrian brand's Impressum (§ 5 DDG, § 7 JMStV, § 36 VSBG).";
    return {
      ok: false,
      status: 400,
      reply: editsCompany
        ? submission.reply({ fieldErrors: Object.fromEntries(missing.map((f) => [COMPANY_PREFIX + f, [why]])) })
        : submission.reply({
            formErrors: [`The company ${company.name} lacks its Impressum details (${missing.join(", ")}): ${why}`],
          }),
    };
  }
  const at = nowS();

  if (existing === null) {
    const base = await defaultBrand(d1);
    if (!base)
      return { ok: false, status: 409, reply: submission.reply({ formErrors: ["No default brand to copy."] }) };
    const [{ top } = { top: 0 }] = await db.select({ top: max(brands.id) }).from(brands);
    const newId = (top ?? 0) + 1;
    const { id: _id, isDefault: _d, ...copy } = base.brand;
    const row = { ...copy, ...brandValues, id: newId, isDefault: false };
    try {
      // The id is chosen here so the audit row can name it in the same batch; a brand added at the
      // same moment makes this batch fail whole (primary key), and the operator posts again.
      await db.batch([
        db.insert(brands).values(row),
        auditStatement(
          db,
          actor,
          { action: "brand.create", targetType: "brand", targetId: String(newId), after: brandValues },
          at,
        ),
      ]);
    } catch {
      return {
        ok: false,
        status: 409,
        reply: submission.reply({
          formErrors: ["Another brand was added at the same time, or the host name was taken. Please save again."],
        }),
      };
    }
    forgetBrands();
    return { ok: true, id: newId, changed: true };
  }

  const brandChange = diff(existing.brand, brandValues);
  const companyChange = editsCompany ? diff(existing.company, companyValues) : null;
  if (!brandChange && !companyChange) return { ok: true, id: existing.brand.id, changed: false };
  const target = String(existing.brand.id);
  try {
    await db.batch([
      ...(brandChange
        ? [
            db.update(brands).set(brandChange.after).where(eq(brands.id, existing.brand.id)),
            auditStatement(
              db,
              actor,
              { action: "brand.update", targetType: "brand", targetId: target, ...brandChange },
              at,
            ),
          ]
        : []),
      ...(companyChange
        ? [
            db.update(companies).set(companyChange.after).where(eq(companies.id, existing.company.id)),
            auditStatement(
              db,
              actor,
              {
                action: "company.update",
                targetType: "company",
                targetId: String(existing.company.id),
                reason: `via brand ${target}`,
                ...companyChange,
              },
              at,
            ),
          ]
        : []),
    ] as unknown as Parameters<typeof db.batch>[0]);
  } catch {
    // The unique host name, taken between the check and the write.
    return {
      ok: false,
      status: 409,
      reply: submission.reply({ fieldErrors: { hostname: ["Another brand answers on this host name."] } }),
    };
  }
  forgetBrands();
  return { ok: true, id: existing.brand.id, changed: true };
}
