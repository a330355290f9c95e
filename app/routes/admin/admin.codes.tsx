/**
 * Discount codes (admin, finance; decision 178): make a code, see its uses and the revenue it
 * brought, switch it off or on. The rules a checkout applies are the discounts model's (evaluateCode,
 * claimGuardSql); this page only writes the row they read, audited.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { readForm } from "~/lib/body.server";
import { codeList, paragraph } from "~/lib/text";
import { PAYMENT_METHODS } from "~/lib/constants";
import { percentageBasisPoints } from "~/lib/offers";
import { getDb, schema } from "../../../db/client";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { amountCentsSchema } from "~/models/admin/payments.server";
import {
  codeUses,
  createCode,
  listCodes,
  normalizeCode,
  setCodeBrands,
  setCodeStatus,
} from "~/models/discounts.server";
import { brandsById } from "~/models/brand.server";
import { when } from "~/components/admin/labels";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { money, statusBadge } from "~/components/admin/money";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "codes";

/** The currencies packages are sold in: a code's minimum is judged in one of them. */
async function currencies(d1: D1Database) {
  const P = schema.packagePrices;
  const rows = await getDb(d1).selectDistinct({ c: P.currency }).from(P).orderBy(P.currency);
  return rows.map((r) => r.c);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const url = new URL(request.url);
  const open = normalizeCode(url.searchParams.get("code") ?? "");
  const [codes, curr, uses, brands] = await Promise.all([
    listCodes(context.env.DB),
    currencies(context.env.DB),
    open ? codeUses(context.env.DB, open) : null,
    brandsById(context.env),
  ]);
  return {
    codes,
    brands: [...brands.values()].map((b) => ({ id: b.id, name: b.name })),
    brandsSaved: url.searchParams.get("brands"),
    currencies: curr,
    methods: PAYMENT_METHODS,
    open: open && uses ? { code: open, uses } : null,
    done: url.searchParams.get("created"),
    now: Math.floor(Date.now() / 1000),
    title: "Discount codes",
  };
}

// The forms' rules, built on first use (decision 234): no part of the Worker's start.
const forms = lazy(() => {
  const brandList = z
    .array(z.string().regex(/^\d{1,9}$/, "Unknown brand."))
    .max(100)
    .transform((ids) => ids.map(Number));

  const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);
  const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

  const create = z
    .object({
      intent: z.literal("create"),
      code: z.string().transform((v, ctx) => {
        const code = normalizeCode(v);
        if (!code)
          ctx.addIssue({
            code: "custom",
            message: "2 to 40 letters, digits or dashes, starting with a letter or digit.",
          });
        return code ?? "";
      }),
      percentage: z
        .string()
        .trim()
        .refine(
          (v) => percentageBasisPoints(v) !== null,
          "A percentage above 0 and below 100, at most two decimals (e.g. 15 or 12.5).",
        ),
      currency: z.preprocess(upper, z.string().regex(/^[A-Z]{3}$/, "Choose a currency.")),
      minimum: z.preprocess(blankToUndefined, amountCentsSchema.optional()),
      expires: z.preprocess(
        blankToUndefined,
        z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, "A day such as 2026-12-31.")
          .transform((d) => Date.parse(`${d}T00:00:00Z`) / 1000 + 86_400)
          .refine(
            (end) => Number.isFinite(end) && end > Date.now() / 1000,
            "The last valid day must be today or later.",
          )
          .optional(),
      ),
      countries: z.preprocess(
        (v) => (typeof v === "string" ? codeList(v) : v),
        z
          .array(z.string().regex(/^[A-Z]{2}$/, "Countries as two-letter codes, e.g. DE, AT."))
          .max(40, "At most 40 countries."),
      ),
      methods: z.array(z.enum(PAYMENT_METHODS, { errorMap: () => ({ message: "Unknown payment method." }) })),
      brands: brandList,
      limit: z.enum(["once", "total"], { errorMap: () => ({ message: "Choose how often it can be used." }) }),
      maxUses: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).max(1_000_000).optional()),
    })
    .refine((f) => f.limit !== "total" || f.maxUses !== undefined, {
      path: ["maxUses"],
      message: "A total needs the number of uses (1 to 1,000,000).",
    });

  /** The brands it is valid on, as ticked (their ids); none ticked = every brand. */
  const brands = z.object({ intent: z.literal("brands"), code: z.string().max(40), brands: brandList });

  const status = z.object({
    intent: z.enum(["disable", "enable"]),
    code: z.string().max(40),
    reason: paragraph(z.string().min(3, "Give a reason (at least 3 characters).").max(500)),
  });
  return { create, brands, status };
});

type Values = Record<string, string | string[]>;

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = await readForm(request, context);
  const values: Values = Object.fromEntries([...form].map(([k, x]) => [k, String(x)]));
  values.methods = form.getAll("methods").map(String);
  values.brands = form.getAll("brands").map(String);
  const known = new Set((await brandsById(context.env)).keys());
  if (values.intent === "brands") {
    const parsed = forms().brands.safeParse(values);
    if (!parsed.success || parsed.data.brands.some((b) => !known.has(b)))
      return { statusError: "Unknown brand: nothing changed.", code: values.code };
    const saved = await setCodeBrands(
      context.env.DB,
      operator,
      parsed.data.code,
      parsed.data.brands.length ? parsed.data.brands : null,
    );
    if (saved === "stale")
      return { statusError: "Someone changed this code meanwhile (or it is unknown): look again.", code: values.code };
    return redirect(`/admin/codes?code=${encodeURIComponent(parsed.data.code)}&brands=saved`);
  }
  if (values.intent === "disable" || values.intent === "enable") {
    const parsed = forms().status.safeParse(values);
    if (!parsed.success) return { statusError: parsed.error.issues[0]?.message ?? "Give a reason.", code: values.code };
    const ok = await setCodeStatus(
      context.env.DB,
      operator,
      parsed.data.code,
      parsed.data.intent === "disable" ? "disabled" : "active",
      parsed.data.reason,
    );
    return ok
      ? redirect("/admin/codes")
      : { statusError: "Nothing changed (already so, or unknown).", code: values.code };
  }
  const parsed = forms().create.safeParse(values);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const i of parsed.error.issues) errors[String(i.path[0] ?? "form")] ??= i.message;
    // The object's own rule runs only once every field parsed: say it with the other errors too.
    if (values.limit === "total" && !String(values.maxUses ?? "").trim())
      errors.maxUses ??= "A total needs the number of uses (1 to 1,000,000).";
    return { errors, values };
  }
  const f = parsed.data;
  if (f.brands.some((b) => !known.has(b))) return { errors: { brands: "Unknown brand." }, values };
  if (!(await currencies(context.env.DB)).includes(f.currency))
    return { errors: { currency: "No package is sold in that currency." }, values };
  const created = await createCode(context.env.DB, operator, {
    code: f.code,
    percentage: f.percentage,
    currency: f.currency,
    minimumCents: f.minimum ?? null,
    expires: f.expires ?? null,
    countries: f.countries.length ? f.countries : null,
    methods: f.methods.length ? f.methods : null,
    brandIds: f.brands.length ? f.brands : null,
    limit: f.limit === "total" ? { kind: "total", maxUses: f.maxUses! } : { kind: "once" },
  });
  if (created === "taken") return { errors: { code: "A code with this name exists already." }, values };
  return redirect(`/admin/codes?created=${encodeURIComponent(f.code)}`);
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Code = Data["codes"][number];

const codeColumns = (now: number, brandName: (id: number) => string): Column<Code>[] => [
  {
    header: "Code",
    cell: (c) => (
      <a href={`/admin/codes?code=${encodeURIComponent(c.code)}`}>
        <code>{c.code}</code>
      </a>
    ),
  },
  { header: "Off", cell: (c) => `${c.valuePercentage} %` },
  {
    header: "Rules",
    className: "a-muted",
    cell: (c) =>
      [
        c.oncePerUser ? "once per member" : null,
        c.maxUses !== null ? `${c.maxUses} uses in all` : null,
        c.minimumOrderValue !== null ? `min. ${money(c.minimumOrderValue, c.currency)}` : null,
        c.brands ? `only on ${c.brands.map(brandName).join(", ")}` : null,
        c.countries ? c.countries.join(", ") : null,
        c.paymentmethods?.length ? c.paymentmethods.join(", ") : null,
        c.expires !== null ? `until ${when(c.expires - 60)}` : null,
        c.userId ? "one member's" : null,
      ]
        .filter(Boolean)
        .join(" · "),
  },
  {
    header: "Status",
    cell: (c) => {
      const expired = c.expires !== null && c.expires <= now;
      return (
        <span className={c.status === "active" && !expired ? "a-badge a-badge-ok" : "a-badge a-badge-red"}>
          {c.status === "active" ? (expired ? "expired" : "active") : "switched off"}
        </span>
      );
    },
  },
  { header: "Uses", num: true, cell: (c) => c.revenue.reduce((s, r) => s + r.payments, 0) },
  {
    header: "Revenue (net of refunds)",
    num: true,
    cell: (c) =>
      c.revenue.length
        ? c.revenue.map((r) => (
            <div key={r.currency}>
              {money(r.netCents, r.currency)}
              <span className="a-muted">{` (${money(r.discountCents, r.currency)} off)`}</span>
            </div>
          ))
        : "–",
  },
  {
    header: "",
    cell: (c) => (
      <form method="post" className="a-filters">
        <input type="hidden" name="intent" value={c.status === "active" ? "disable" : "enable"} />
        <input type="hidden" name="code" value={c.code} />
        <label className="a-field">
          <span>Reason</span>
          <input name="reason" required minLength={3} maxLength={500} />
        </label>
        <button type="submit" className="a-btn a-btn-quiet">
          {c.status === "active" ? "Switch off" : "Switch on"}
        </button>
      </form>
    ),
  },
];

const USE_COLUMNS: Column<NonNullable<Data["open"]>["uses"][number]>[] = [
  { header: "Paid (UTC)", cell: (u) => (u.paidAt ? when(u.paidAt) : "–") },
  {
    header: "Payment",
    cell: (u) => (
      <a href={`/admin/payments/${u.paymentId}`}>
        <code>{u.paymentId}</code>
      </a>
    ),
  },
  { header: "Member", cell: (u) => <code>{u.userId}</code> },
  { header: "Status", cell: (u) => <span className={statusBadge(u.status)}>{u.status}</span> },
  { header: "Paid", num: true, cell: (u) => money(u.amountCents, u.currency) },
  {
    header: "Before discount",
    num: true,
    cell: (u) => (u.originalCents !== null ? money(u.originalCents, u.currency) : "–"),
  },
];

export default function AdminCodes() {
  const { codes, currencies, methods, open, done, now, brands, brandsSaved } = useLoaderData<typeof loader>();
  const brandName = (id: number) => brands.find((b) => b.id === id)?.name ?? `brand ${id}`;
  const result = useActionData<typeof action>();
  const errors: Record<string, string> = (result && "errors" in result ? result.errors : undefined) ?? {};
  const v = (result && "values" in result ? result.values : {}) as Values;
  const val = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : "");
  const chosen = Array.isArray(v.methods) ? v.methods : [];
  const err = (k: string) =>
    errors[k] ? (
      <span className="a-field-error" id={`err-${k}`}>
        {errors[k]}
      </span>
    ) : null;
  const described = (k: string) => (errors[k] ? { "aria-invalid": true, "aria-describedby": `err-${k}` } : {});
  return (
    <>
      <h1>Discount codes</h1>
      {done ? (
        <p className="a-ok" role="status">
          Code <code>{done}</code> created. Members can type it at checkout now.
        </p>
      ) : null}
      {result && "statusError" in result ? (
        <p className="a-error" role="alert">
          {result.statusError}
        </p>
      ) : null}
      {Object.keys(errors).length ? (
        <p className="a-error" role="alert">
          The code was not created: see the fields marked below.
        </p>
      ) : null}
      <AdminTable columns={codeColumns(now, brandName)} rows={codes} rowKey={(c) => c.id} empty="No codes yet." />
      {open ? (
        <>
          {(() => {
            const code = codes.find((c) => c.code === open.code);
            return code ? (
              <form method="post" className="a-card" id="brands">
                <h2>
                  Brands of <code>{code.code}</code>
                </h2>
                {brandsSaved ? (
                  <p className="a-ok" role="status">
                    Saved: the checkout applies it from now on.
                  </p>
                ) : null}
                <input type="hidden" name="intent" value="brands" />
                <input type="hidden" name="code" value={code.code} />
                <fieldset className="a-checks">
                  <legend>Valid on (none ticked = every brand; elsewhere it is “Code not found”)</legend>
                  {brands.map((b) => (
                    <label key={b.id}>
                      <input
                        type="checkbox"
                        name="brands"
                        value={b.id}
                        defaultChecked={!!code.brands?.includes(b.id)}
                      />
                      {b.name}
                    </label>
                  ))}
                </fieldset>
                <button type="submit" className="a-btn">
                  Save brands
                </button>
              </form>
            ) : null;
          })()}
          <h2>
            Uses of <code>{open.code}</code>
          </h2>
          <AdminTable
            columns={USE_COLUMNS}
            rows={open.uses}
            rowKey={(u) => u.paymentId}
            empty="No completed payments with this code yet."
          />
        </>
      ) : null}
      <form method="post" className="a-card" noValidate>
        <h2>New code</h2>
        <input type="hidden" name="intent" value="create" />
        <div className="a-form-grid">
          <label className="a-field">
            <span>Code</span>
            <input
              name="code"
              defaultValue={val("code")}
              maxLength={40}
              autoCapitalize="characters"
              {...described("code")}
            />
            {err("code")}
          </label>
          <label className="a-field">
            <span>Percentage off</span>
            <input
              name="percentage"
              inputMode="decimal"
              defaultValue={val("percentage")}
              {...described("percentage")}
            />
            {err("percentage")}
          </label>
          <label className="a-field">
            <span>Currency of the minimum</span>
            <select name="currency" defaultValue={val("currency") || "EUR"} {...described("currency")}>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            {err("currency")}
          </label>
          <label className="a-field">
            <span>Minimum order (optional)</span>
            <input
              name="minimum"
              inputMode="decimal"
              defaultValue={val("minimum")}
              placeholder="e.g. 20.00"
              {...described("minimum")}
            />
            <span className="a-field-hint">In the code's currency; judged on the package's price there.</span>
            {err("minimum")}
          </label>
          <label className="a-field">
            <span>Valid until (UTC day, optional)</span>
            <input name="expires" type="date" defaultValue={val("expires")} {...described("expires")} />
            {err("expires")}
          </label>
          <label className="a-field">
            <span>Countries (optional)</span>
            <input name="countries" defaultValue={val("countries")} placeholder="DE, AT" {...described("countries")} />
            <span className="a-field-hint">Payment countries, two-letter codes; empty = every country.</span>
            {err("countries")}
          </label>
          <label className="a-field">
            <span>How often</span>
            <select name="limit" defaultValue={val("limit") || "once"} {...described("limit")}>
              <option value="once">Once per member</option>
              <option value="total">A total number of uses</option>
            </select>
            {err("limit")}
          </label>
          <label className="a-field">
            <span>Total uses (for a total)</span>
            <input name="maxUses" inputMode="numeric" defaultValue={val("maxUses")} {...described("maxUses")} />
            {err("maxUses")}
          </label>
        </div>
        <fieldset className="a-checks">
          <legend>Payment methods (none ticked = every method)</legend>
          {methods.map((m) => (
            <label key={m}>
              <input type="checkbox" name="methods" value={m} defaultChecked={chosen.includes(m)} />
              {m}
            </label>
          ))}
        </fieldset>
        {err("methods")}
        <fieldset className="a-checks">
          <legend>Brands (none ticked = every brand)</legend>
          {brands.map((b) => (
            <label key={b.id}>
              <input
                type="checkbox"
                name="brands"
                value={b.id}
                defaultChecked={Array.isArray(v.brands) && v.brands.includes(String(b.id))}
              />
              {b.name}
            </label>
          ))}
        </fieldset>
        {err("brands")}
        <button type="submit" className="a-btn">
          Create code
        </button>
      </form>
    </>
  );
}
