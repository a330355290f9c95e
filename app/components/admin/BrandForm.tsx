/**
 * The one brand form of the console (decision 181): rendered from the field list, plain HTML (no
 * JavaScript); errors sit next to their field, the form keeps what was typed.
 */
import type { SubmissionResult } from "@conform-to/react";
import {
  brandFieldsets,
  companyFieldset,
  COMPANY_PREFIX,
  type Fieldset,
  type FormField,
} from "~/models/admin/brand-fields";

type Values = Record<string, string>;

/** What the form shows: the posted values after a refused save, else the stored ones. */
function shown(stored: Values, last: SubmissionResult<string[]> | null | undefined): Values {
  const posted = last?.initialValue as Record<string, unknown> | undefined;
  if (!posted) return stored;
  const out: Values = {};
  for (const k of Object.keys(stored)) {
    const v = posted[k];
    out[k] = typeof v === "string" ? v : "";
  }
  out.companyId = typeof posted.companyId === "string" ? posted.companyId : stored.companyId!;
  return out;
}

function Field<Row>({ f, name, value, error }: { f: FormField<Row>; name: string; value: string; error?: string }) {
  const id = `f-${name}`;
  const aria = error ? { "aria-invalid": true as const, "aria-describedby": `err-${name}` } : {};
  const hint = f.hint ? <span className="a-field-hint">{f.hint}</span> : null;
  const err = error ? (
    <span className="a-field-error" id={`err-${name}`}>
      {error}
    </span>
  ) : null;
  if (f.kind === "check")
    return (
      <div className="a-field a-field-check">
        <label htmlFor={id}>
          <input id={id} type="checkbox" name={name} defaultChecked={value === "on"} {...aria} />
          <span>{f.label}</span>
        </label>
        {hint}
        {err}
      </div>
    );
  let input: React.ReactNode;
  if (f.kind === "select")
    input = (
      <select id={id} name={name} defaultValue={value} {...aria}>
        {f.options?.some(([v]) => v === value) ? null : <option value={value}>{value || "Choose…"}</option>}
        {f.options?.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
    );
  else if (f.kind === "long" || f.kind === "lines" || f.kind === "list")
    input = (
      <textarea
        id={id}
        name={name}
        defaultValue={value}
        rows={f.kind === "lines" ? 6 : 2}
        spellCheck={f.kind === "long"}
        {...aria}
      />
    );
  else
    input = (
      <input
        id={id}
        name={name}
        defaultValue={value}
        type={f.kind === "email" ? "email" : "text"}
        inputMode={f.kind === "int" ? "numeric" : f.kind === "money" ? "decimal" : undefined}
        autoComplete="off"
        {...aria}
      />
    );
  return (
    <div className={f.wide || f.kind === "lines" || f.kind === "long" ? "a-field a-field-wide" : "a-field"}>
      <label htmlFor={id}>{f.label}</label>
      {input}
      {hint}
      {err}
    </div>
  );
}

function Group<Row>({
  set,
  values,
  errors,
  prefix = "",
  children,
}: {
  set: Fieldset<Row>;
  values: Values;
  errors: Record<string, string[] | null>;
  prefix?: string;
  children?: React.ReactNode;
}) {
  return (
    <fieldset className="a-fieldset">
      <legend>{set.legend}</legend>
      {set.hint ? <p className="a-muted">{set.hint}</p> : null}
      {children}
      <div className="a-form-grid">
        {set.fields.map((f) => (
          <Field
            key={f.name}
            f={f}
            name={prefix + f.name}
            value={values[prefix + f.name] ?? ""}
            error={errors[prefix + f.name]?.[0]}
          />
        ))}
      </div>
    </fieldset>
  );
}

export function BrandForm({
  stored,
  last,
  companies,
  editsCompany,
  submit,
}: {
  /** The form's values from the stored rows (brand fields, company fields with COMPANY_PREFIX, companyId). */
  stored: Values;
  last: SubmissionResult<string[]> | null | undefined;
  companies: { id: number; name: string }[];
  /** The edit page also edits the brand's company; a new brand only chooses one. */
  editsCompany: boolean;
  submit: string;
}) {
  const values = shown(stored, last);
  const errors = last?.error ?? {};
  const formErrors = errors[""] ?? [];
  const any = Object.values(errors).some((e) => e?.length);
  return (
    <form method="post" className="a-card a-brand-form" noValidate>
      {any ? (
        <p className="a-error" role="alert">
          Nothing was saved: {formErrors.length ? formErrors.join(" ") : "see the fields marked below."}
        </p>
      ) : null}
      {brandFieldsets().map((set) => (
        <Group key={set.legend} set={set} values={values} errors={errors} />
      ))}
      <fieldset className="a-fieldset">
        <legend>Company for receipts</legend>
        <div className="a-form-grid">
          <div className="a-field">
            <label htmlFor="f-companyId">Seller on receipts and in the imprint</label>
            <select
              id="f-companyId"
              name="companyId"
              defaultValue={values.companyId}
              {...(errors.companyId?.length ? { "aria-invalid": true, "aria-describedby": "err-companyId" } : {})}
            >
              {companies.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
            <span className="a-field-hint">
              {editsCompany
                ? "The details below are this company's: a change shows on every brand it serves. Choosing another company saves only the choice."
                : "Its details are edited on the brand's page once saved."}
            </span>
            {errors.companyId?.length ? (
              <span className="a-field-error" id="err-companyId">
                {errors.companyId[0]}
              </span>
            ) : null}
          </div>
        </div>
      </fieldset>
      {editsCompany ? <Group set={companyFieldset()} values={values} errors={errors} prefix={COMPANY_PREFIX} /> : null}
      <p className="a-btn-row">
        <button type="submit" className="a-btn">
          {submit}
        </button>
        <a href="/admin/brands">Cancel</a>
      </p>
    </form>
  );
}
