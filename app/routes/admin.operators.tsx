/**
 * Operator accounts (admin): who has which role and a second factor; disable or enable with a reason;
 * which brands a chat team member works for (decision 211).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Flash } from "~/components/admin/Flash";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import {
  listOperators,
  requireOperator,
  setOperatorBrands,
  setOperatorDisabled,
  type OperatorArea,
} from "~/models/admin/operators.server";
import { listBrands } from "~/models/admin/brands.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "operators";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const [operators, brands] = await Promise.all([listOperators(context.env.DB), listBrands(context.env.DB)]);
  return { me: operator.id, operators, brands: brands.map((b) => ({ id: b.id, name: b.name })) };
}

const brandsSchema = z.object({ id: z.string().min(1).max(100), brand: z.array(z.coerce.number().int().positive()) });

const changeSchema = z.object({
  id: z.string().min(1).max(100),
  disabled: z.enum(["0", "1"]),
  reason: z.string().trim().min(3).max(500),
});

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = await readForm(request, context);
  if (form.get("intent") === "brands") {
    const brands = brandsSchema.safeParse({ id: form.get("id"), brand: form.getAll("brand") });
    if (!brands.success) return { error: "That form was not complete." };
    return (await setOperatorBrands(context.env.DB, operator, brands.data.id, brands.data.brand))
      ? { done: "Saved." }
      : { error: "Nothing changed (not a chat team account, or an unknown brand)." };
  }
  const parsed = changeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "Give a reason (at least 3 characters)." };
  const ok = await setOperatorDisabled(
    context.env.DB,
    operator,
    parsed.data.id,
    parsed.data.disabled === "1",
    parsed.data.reason,
  );
  return ok ? { done: "Saved." } : { error: "Nothing changed (already so, unknown, or your own account)." };
}

export default function AdminOperators() {
  const { me, operators, brands } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>Operators</h1>
      <Flash result={result} />
      <p className="a-muted">
        New operators are made with <code>npm run operator:create</code> (see the README).
      </p>
      <div className="a-table-wrap">
        <table className="a-table">
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Name</th>
              <th>Role</th>
              <th>2FA</th>
              <th>Brands</th>
              <th>Status</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {operators.map((o) => (
              <tr key={o.id}>
                <td>{o.email}</td>
                <td>{o.name}</td>
                <td>
                  <span className="a-badge">{o.role}</span>
                </td>
                <td>{o.hasTotp ? "TOTP" : <span className="a-badge a-badge-red">none</span>}</td>
                <td>
                  {o.role === "chat_team" ? (
                    <form method="post" className="a-filters">
                      <input type="hidden" name="intent" value="brands" />
                      <input type="hidden" name="id" value={o.id} />
                      {brands.map((b) => (
                        <label key={b.id} className="a-check">
                          <input
                            type="checkbox"
                            name="brand"
                            value={b.id}
                            defaultChecked={o.brandIds?.includes(b.id)}
                          />{" "}
                          {b.name}
                        </label>
                      ))}
                      <button type="submit" className="a-btn a-btn-quiet">
                        Save brands
                      </button>
                      {o.brandIds ? null : <span className="a-muted">none ticked: every brand</span>}
                    </form>
                  ) : (
                    <span className="a-muted">every brand</span>
                  )}
                </td>
                <td>
                  {o.disabled ? (
                    <span className="a-badge a-badge-red">disabled</span>
                  ) : (
                    <span className="a-badge a-badge-ok">active</span>
                  )}
                </td>
                <td>
                  {o.id === me ? (
                    <span className="a-muted">you</span>
                  ) : (
                    <form method="post" className="a-filters">
                      <input type="hidden" name="id" value={o.id} />
                      <input type="hidden" name="disabled" value={o.disabled ? "0" : "1"} />
                      <label className="a-field">
                        <span>Reason</span>
                        <input name="reason" required minLength={3} maxLength={500} />
                      </label>
                      <button type="submit" className="a-btn a-btn-quiet">
                        {o.disabled ? "Enable" : "Disable"}
                      </button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
