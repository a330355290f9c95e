/**
 * Packages, prices and payment methods (admin; decision 182): the rows /credits and
 * the checkout read, changed by plain posts (the console ships no JavaScript). The rules and their
 * guards are in app/models/admin/packages.server.ts; every change is audited in its own batch.
 */
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmStep } from "~/components/admin/Confirm";
import { guardAction, guardAnswer } from "~/models/admin/guard.server";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { readForm } from "~/lib/body.server";
import { codeList } from "~/lib/text";
import { PAYMENT_METHODS } from "~/lib/constants";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { amountCentsSchema } from "~/models/admin/payments.server";
import {
  CREDITS_MAX,
  CREDITS_MIN,
  PRICE_MAX_CENTS,
  PRICE_MIN_CENTS,
  PACKAGE_ID,
  addMethod,
  addPackage,
  methodsOverview,
  removeBrandPrice,
  setBrandPrice,
  moveMethod,
  packagesOverview,
  removePackagePrice,
  setMethodEnabled,
  setPackageCredits,
  setPackagePrice,
  type Change,
} from "~/models/admin/packages.server";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { money } from "~/components/admin/money";
import { brandsById } from "~/models/brand.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "packages";

const COUNTRY = /^(?:[A-Z]{2}|\*)$/;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const url = new URL(request.url);
  const [shop, methods] = await Promise.all([packagesOverview(context.env.DB), methodsOverview(context.env.DB)]);
  const asked = (url.searchParams.get("country") ?? "").toUpperCase();
  const country = methods.countries.includes(asked) ? asked : (methods.countries[0] ?? "*");
  return {
    ...shop,
    countries: methods.countries,
    country,
    methods: methods.rows.filter((r) => r.country === country),
    all: PAYMENT_METHODS,
    done: url.searchParams.get("done"),
    title: "Packages, prices and methods",
  };
}

const PRICE_RANGE = `A price from ${PRICE_MIN_CENTS / 100}.00 to ${(PRICE_MAX_CENTS / 100).toLocaleString("en")}.00.`;

// The form's rules, built on first use (decision 234): no part of the Worker's start.
const Form = lazy(() => {
  const id = z.string().trim().min(1).max(40);
  const currency = z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
    z.string().regex(/^[A-Z]{3}$/, "Choose a currency."),
  );
  const country = z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
    z.string().regex(COUNTRY, "A two-letter country code (e.g. FR), or * for every other country."),
  );
  const method = z.enum(PAYMENT_METHODS, { errorMap: () => ({ message: "Unknown payment method." }) });

  const priceAmount = z
    .string({ required_error: PRICE_RANGE })
    .pipe(amountCentsSchema)
    .pipe(z.number().min(PRICE_MIN_CENTS, PRICE_RANGE).max(PRICE_MAX_CENTS, PRICE_RANGE));
  const creditsAmount = z
    .string({ required_error: "Give the credits." })
    .trim()
    .regex(/^\d{1,7}$/, "Whole credits, e.g. 60.")
    .transform(Number)
    .pipe(
      z
        .number()
        .min(CREDITS_MIN, `From ${CREDITS_MIN} to ${CREDITS_MAX.toLocaleString("en")} credits.`)
        .max(CREDITS_MAX, `From ${CREDITS_MIN} to ${CREDITS_MAX.toLocaleString("en")} credits.`),
    );
  const brandId = z
    .string()
    .regex(/^\d{1,9}$/, "Unknown brand.")
    .transform(Number);

  return z.discriminatedUnion("intent", [
    z.object({
      intent: z.literal("credits"),
      package: id,
      credits: creditsAmount,
    }),
    z.object({
      intent: z.literal("price"),
      package: id,
      currency,
      amount: priceAmount,
    }),
    z.object({ intent: z.literal("remove"), package: id, currency }),
    z.object({ intent: z.literal("brand_price"), package: id, brand: brandId, amount: priceAmount }),
    z.object({ intent: z.literal("brand_remove"), package: id, brand: brandId }),
    z.object({
      intent: z.literal("add_package"),
      package: z.string().trim().toLowerCase().regex(PACKAGE_ID, "An id of 2 to 16 letters, digits, - or _, e.g. p4."),
      tier: z.enum(["p0", "p1", "p2", "p3"], { errorMap: () => ({ message: "Choose a tier." }) }),
      credits: creditsAmount,
      currency,
      amount: priceAmount,
      brands: z.array(brandId).max(100).optional(),
    }),
    z.object({ intent: z.literal("move"), country, method, direction: z.enum(["up", "down"]) }),
    z.object({ intent: z.literal("toggle"), country, method, enabled: z.enum(["0", "1"]) }),
    z.object({
      intent: z.literal("add"),
      country,
      method,
      currencies: z.preprocess(
        (v) => (typeof v === "string" ? codeList(v) : []),
        z.array(z.string().regex(/^[A-Z]{3}$/, "Currencies as ISO codes, e.g. EUR, PLN.")).max(10),
      ),
    }),
  ]);
});

const REFUSED: Record<string, string> = {
  credits: "Unknown package.",
  price: "That package or currency is not one the brands sell in.",
  remove:
    "Not removed: it is the last package on sale in a currency a brand sells in (its shop would be empty). Price another package there first.",
  move: "It is already at that end of the list.",
  toggle: "Nothing changed.",
  add: "That method is in this country's list already.",
  brand_price: "Unknown package or brand.",
  brand_remove:
    "Not removed: without its own price the brand would sell no package (this one has no shared price in the brand's currency and no other is on sale there).",
  add_package:
    "Not added: the id is taken, or a chosen brand does not sell in that currency (a brand's prices are in its own currency).",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = await readForm(request, context);
  const submission = parseWithZod(form, { schema: Form() });
  const brandName = async (brand: number) => (await brandsById(context.env)).get(brand)?.name ?? `brand ${brand}`;
  const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
  if (submission.status !== "success") {
    const errors = Object.values(submission.error ?? {})
      .flat()
      .filter((m): m is string => typeof m === "string");
    return { error: errors[0] ?? "That form was not complete.", values };
  }
  const f = submission.value;
  const db = context.env.DB;
  // A brand's own price, or a new package: confirmed with what changes where (decision 217).
  if (f.intent === "brand_price" || f.intent === "brand_remove" || f.intent === "add_package") {
    const impact =
      f.intent === "brand_price"
        ? `Sell ${f.package} on ${await brandName(f.brand)} at ${(f.amount / 100).toFixed(2)} in its currency, from the next purchase (its shared price stays for the other brands).`
        : f.intent === "brand_remove"
          ? `${await brandName(f.brand)} goes back to the shared price of ${f.package} (or, without one in its currency, stops selling it).`
          : `Start selling a new package ${f.package} (${f.credits} credits, tier ${f.tier}) at ${(f.amount / 100).toFixed(2)} ${f.currency} on ${
              (f.brands ?? []).length
                ? (await Promise.all((f.brands ?? []).map(brandName))).join(", ")
                : `every brand selling in ${f.currency}`
            }.`;
    const wait = guardAnswer(
      await guardAction(context.env, operator, form, {
        kind: f.intent === "brand_remove" ? "package.stop" : "price.change",
        impact,
        target: { type: "package", id: f.package },
      }),
    );
    if (wait) return { ...wait, values };
  }
  // A price change or a package no longer sold touches every brand selling in that currency: confirmed first.
  if (f.intent === "price" || f.intent === "remove") {
    const wait = guardAnswer(
      await guardAction(context.env, operator, form, {
        kind: f.intent === "price" ? "price.change" : "package.stop",
        impact:
          f.intent === "price"
            ? `Sell ${f.package} in ${f.currency} at ${(f.amount / 100).toFixed(2)} on every brand selling in ${f.currency}, from the next purchase.`
            : `Stop selling ${f.package} in ${f.currency} on every brand selling in ${f.currency}.`,
        target: { type: "package", id: f.package },
      }),
    );
    if (wait) return { ...wait, values };
  }
  let result: Change;
  switch (f.intent) {
    case "credits":
      result = await setPackageCredits(db, operator, f.package, f.credits);
      break;
    case "price":
      result = await setPackagePrice(db, operator, f.package, f.currency, f.amount);
      break;
    case "remove":
      result = await removePackagePrice(db, operator, f.package, f.currency);
      break;
    case "move":
      result = await moveMethod(db, operator, f.country, f.method, f.direction);
      break;
    case "toggle":
      result = await setMethodEnabled(db, operator, f.country, f.method, f.enabled === "1");
      break;
    case "add":
      result = await addMethod(db, operator, f.country, f.method, f.currencies.length ? f.currencies : null);
      break;
    case "brand_price":
      result = await setBrandPrice(db, operator, f.package, f.brand, f.amount);
      break;
    case "brand_remove":
      result = await removeBrandPrice(db, operator, f.package, f.brand);
      break;
    case "add_package":
      result = await addPackage(db, operator, {
        id: f.package,
        tier: f.tier,
        credits: f.credits,
        currency: f.currency,
        priceCents: f.amount,
        brandIds: f.brands?.length ? f.brands : null,
      });
      break;
  }
  if (result === "ok") {
    const at = "country" in f ? `&country=${encodeURIComponent(f.country)}` : "";
    return redirect(`/admin/packages?done=${f.intent}${at}${"country" in f ? "#methods" : ""}`);
  }
  return {
    error: result === "stale" ? "Someone changed this meanwhile: look again and repeat." : REFUSED[f.intent]!,
    values,
  };
}

const DONE: Record<string, string> = {
  credits: "Credits saved. New purchases get them; payments already made keep theirs.",
  price: "Price saved. The shop shows it now; payments already created keep their amount.",
  remove: "That package is no longer sold in that currency.",
  move: "Order saved.",
  toggle: "Saved. The checkout shows it now.",
  add: "Method added at the end of the list.",
  brand_price: "Brand price saved. That brand's shop shows it now; payments already created keep their amount.",
  brand_remove: "That brand uses the shared price again.",
  add_package: "Package added and on sale.",
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

const packageColumns = (currencies: Data["currencies"]): Column<Data["packages"][number]>[] => [
  {
    header: "Package",
    cell: (p) => (
      <>
        <a href={`#package-${p.id}`}>
          <code>{p.id}</code>
        </a>{" "}
        {p.oneTime ? <span className="a-badge">try-out, once per member</span> : <span>tier {p.tier}</span>}
      </>
    ),
  },
  { header: "Credits", num: true, cell: (p) => p.credits },
  ...currencies.map((c): Column<Data["packages"][number]> => ({
    header: c,
    num: true,
    cell: (p) => (p.prices[c] !== undefined ? money(p.prices[c], c) : <span className="a-muted">not sold</span>),
  })),
];

const METHOD_COLUMNS: Column<Data["methods"][number] & { i: number; last: boolean }>[] = [
  { header: "#", num: true, cell: (m) => m.i + 1 },
  {
    header: "Method",
    cell: (m) => (
      <>
        {m.method}
        {m.providerMethod !== m.method ? <span className="a-muted"> ({m.providerMethod})</span> : null}
      </>
    ),
  },
  { header: "Accepts", cell: (m) => (m.currencies ? m.currencies.split(",").join(", ") : "any currency") },
  {
    header: "Status",
    cell: (m) => (
      <span className={m.enabled ? "a-badge a-badge-ok" : "a-badge a-badge-red"}>{m.enabled ? "on" : "off"}</span>
    ),
  },
  {
    header: "Order",
    className: "a-nowrap",
    cell: (m) =>
      (["up", "down"] as const).map((dir) => (
        <form key={dir} method="post" className="a-inline">
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="country" value={m.country} />
          <input type="hidden" name="method" value={m.method} />
          <input type="hidden" name="direction" value={dir} />
          <button
            type="submit"
            className="a-btn a-btn-quiet"
            disabled={dir === "up" ? m.i === 0 : m.last}
            aria-label={`Move ${m.method} ${dir}`}
          >
            {dir === "up" ? "↑" : "↓"}
          </button>
        </form>
      )),
  },
  {
    header: "",
    cell: (m) => (
      <form method="post">
        <input type="hidden" name="intent" value="toggle" />
        <input type="hidden" name="country" value={m.country} />
        <input type="hidden" name="method" value={m.method} />
        <input type="hidden" name="enabled" value={m.enabled ? "0" : "1"} />
        <button type="submit" className="a-btn a-btn-quiet">
          {m.enabled ? "Switch off" : "Switch on"}
        </button>
      </form>
    ),
  },
];

export default function AdminPackages() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const typed = result?.values ?? {};
  /** The value this form shows: what was typed when this very form came back with an error. */
  const typedFor = (fields: Record<string, string>, key: string, fallback: string) =>
    Object.entries(fields).every(([k, v]) => typed[k] === v) ? (typed[key] ?? fallback) : fallback;
  const amount = (cents: number | undefined) => (cents === undefined ? "" : (cents / 100).toFixed(2));
  const typedNew = (key: string) => (typed.intent === "add_package" ? (typed[key] ?? "") : "");
  return (
    <>
      <h1>Packages, prices and methods</h1>
      {d.done && DONE[d.done] ? (
        <p className="a-ok" role="status">
          {DONE[d.done]}
        </p>
      ) : null}
      {result?.error ? (
        <p className="a-error" role="alert">
          {result.error}
        </p>
      ) : null}
      {result && "confirm" in result && result.confirm ? (
        <ConfirmStep confirm={result.confirm} cancel="/admin/packages" />
      ) : null}

      <h2>Packages</h2>
      <AdminTable columns={packageColumns(d.currencies)} rows={d.packages} rowKey={(p) => p.id} empty="No packages." />
      <p className="a-muted">
        Brands sell in:{" "}
        {d.currencies
          .filter((c) => d.brandsByCurrency[c]?.length)
          .map((c) => `${c} (${d.brandsByCurrency[c]!.join(", ")})`)
          .join(" · ")}
        . Prices are whole cents; a change applies to new purchases only.
      </p>

      <div className="a-pack-grid">
        {d.packages.map((p) => (
          <section key={p.id} id={`package-${p.id}`} className="a-card">
            <h3>
              <code>{p.id}</code> {p.oneTime ? "· try-out package (the delete-account offer)" : `· tier ${p.tier}`}
            </h3>
            <form method="post" className="a-price-row">
              <input type="hidden" name="intent" value="credits" />
              <input type="hidden" name="package" value={p.id} />
              <label htmlFor={`credits-${p.id}`}>Credits</label>
              <input
                id={`credits-${p.id}`}
                name="credits"
                inputMode="numeric"
                required
                defaultValue={typedFor({ intent: "credits", package: p.id }, "credits", String(p.credits))}
              />
              <button type="submit" className="a-btn">
                Save credits
              </button>
            </form>
            {d.currencies.map((c) => {
              const cents = p.prices[c];
              return (
                <div key={c} className="a-price-row">
                  <form method="post" className="a-contents">
                    <input type="hidden" name="intent" value="price" />
                    <input type="hidden" name="package" value={p.id} />
                    <input type="hidden" name="currency" value={c} />
                    <label htmlFor={`price-${p.id}-${c}`}>
                      {c}
                      {cents === undefined ? <span className="a-muted"> not sold</span> : null}
                    </label>
                    <input
                      id={`price-${p.id}-${c}`}
                      aria-label={`Price in ${c}`}
                      name="amount"
                      inputMode="decimal"
                      placeholder="e.g. 19.95"
                      defaultValue={typedFor({ intent: "price", package: p.id, currency: c }, "amount", amount(cents))}
                    />
                    <button type="submit" className="a-btn">
                      {cents === undefined ? "Start selling" : "Save price"}
                    </button>
                  </form>
                  {cents !== undefined ? (
                    <form method="post">
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="package" value={p.id} />
                      <input type="hidden" name="currency" value={c} />
                      <button type="submit" className="a-btn a-btn-quiet" aria-label={`Stop selling ${p.id} in ${c}`}>
                        Stop selling
                      </button>
                    </form>
                  ) : (
                    <span />
                  )}
                </div>
              );
            })}
            {p.oneTime ? null : (
              <details className="a-brand-prices" open={Object.keys(p.brandPrices).length > 0}>
                <summary>Per brand ({Object.keys(p.brandPrices).length} with their own price)</summary>
                {d.brands.map((b) => {
                  const own = p.brandPrices[b.id];
                  const shared = p.prices[b.currency];
                  return (
                    <div key={b.id} className="a-price-row">
                      <form method="post" className="a-contents">
                        <input type="hidden" name="intent" value="brand_price" />
                        <input type="hidden" name="package" value={p.id} />
                        <input type="hidden" name="brand" value={b.id} />
                        <label htmlFor={`bprice-${p.id}-${b.id}`}>
                          {b.name} ({b.currency})
                          <span className="a-muted">
                            {own !== undefined
                              ? " own price"
                              : shared !== undefined
                                ? ` shared ${money(shared, b.currency)}`
                                : " not sold"}
                          </span>
                        </label>
                        <input
                          id={`bprice-${p.id}-${b.id}`}
                          aria-label={`Price of ${p.id} on ${b.name}`}
                          name="amount"
                          inputMode="decimal"
                          placeholder={shared !== undefined ? amount(shared) : "e.g. 19.95"}
                          defaultValue={typedFor(
                            { intent: "brand_price", package: p.id, brand: String(b.id) },
                            "amount",
                            amount(own),
                          )}
                        />
                        <button type="submit" className="a-btn">
                          {own === undefined ? "Own price" : "Save"}
                        </button>
                      </form>
                      {own !== undefined ? (
                        <form method="post">
                          <input type="hidden" name="intent" value="brand_remove" />
                          <input type="hidden" name="package" value={p.id} />
                          <input type="hidden" name="brand" value={b.id} />
                          <button
                            type="submit"
                            className="a-btn a-btn-quiet"
                            aria-label={`Use the shared price of ${p.id} on ${b.name}`}
                          >
                            Shared price
                          </button>
                        </form>
                      ) : (
                        <span />
                      )}
                    </div>
                  );
                })}
              </details>
            )}
          </section>
        ))}
      </div>

      <form method="post" className="a-card" id="add-package">
        <h3>Add a package</h3>
        <input type="hidden" name="intent" value="add_package" />
        <div className="a-form-grid">
          <label className="a-field">
            <span>Id</span>
            <input name="package" required maxLength={16} placeholder="p4" defaultValue={typedNew("package")} />
          </label>
          <label className="a-field">
            <span>Tier (its place and look in the shop)</span>
            <select name="tier" defaultValue={typedNew("tier") || "p1"}>
              {["p0", "p1", "p2", "p3"].map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label className="a-field">
            <span>Credits</span>
            <input name="credits" inputMode="numeric" required defaultValue={typedNew("credits")} />
          </label>
          <label className="a-field">
            <span>Currency</span>
            <select name="currency" defaultValue={typedNew("currency") || d.currencies[0]}>
              {d.currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label className="a-field">
            <span>Price</span>
            <input
              name="amount"
              inputMode="decimal"
              required
              placeholder="e.g. 19.95"
              defaultValue={typedNew("amount")}
            />
          </label>
        </div>
        <fieldset className="a-checks">
          <legend>Only on these brands (their own price; none ticked = every brand selling in the currency)</legend>
          {d.brands.map((b) => (
            <label key={b.id}>
              <input type="checkbox" name="brands" value={b.id} />
              {b.name} ({b.currency})
            </label>
          ))}
        </fieldset>
        <button type="submit" className="a-btn">
          Add and start selling
        </button>
      </form>

      <h2 id="methods">Payment methods per country</h2>
      <p className="a-muted">
        The checkout offers a country&apos;s switched-on methods in this order, where they accept the brand&apos;s
        currency; a country without its own list uses the * list.
      </p>
      <nav className="a-pills" aria-label="Countries">
        {d.countries.map((c) => (
          <a
            key={c}
            href={`/admin/packages?country=${encodeURIComponent(c)}#methods`}
            aria-current={c === d.country ? "page" : undefined}
          >
            {c === "*" ? "* (others)" : c}
          </a>
        ))}
      </nav>
      <AdminTable
        columns={METHOD_COLUMNS}
        rows={d.methods.map((m, i) => ({ ...m, i, last: i === d.methods.length - 1 }))}
        rowKey={(m) => m.method}
        empty="No methods for this country."
      />
      <form method="post" className="a-card">
        <h3>Add a method</h3>
        <input type="hidden" name="intent" value="add" />
        <div className="a-form-grid">
          <label className="a-field">
            <span>Country</span>
            <input name="country" defaultValue={typed.intent === "add" ? typed.country : d.country} maxLength={2} />
            <span className="a-field-hint">
              Two letters, or * for every other country. A new country starts with a copy of the * list.
            </span>
          </label>
          <label className="a-field">
            <span>Method</span>
            <select name="method" defaultValue={typed.intent === "add" ? typed.method : undefined}>
              {d.all.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label className="a-field">
            <span>Accepted currencies (optional)</span>
            <input
              name="currencies"
              placeholder="EUR, PLN"
              defaultValue={typed.intent === "add" ? typed.currencies : undefined}
            />
            <span className="a-field-hint">Empty: as the method accepts elsewhere, else any currency.</span>
          </label>
        </div>
        <button type="submit" className="a-btn">
          Add to the end of the list
        </button>
      </form>
    </>
  );
}
