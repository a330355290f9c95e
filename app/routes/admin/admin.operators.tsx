/**
 * Operator accounts (admin, decision 216): add an operator (a one-time password shown once), change a
 * role, reset a password or the second factor, disable or enable; each with a reason, audited; and which
 * brands a chat team member works for (decision 211).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Flash } from "~/components/admin/Flash";
import { readForm } from "~/lib/body.server";
import { auditReason } from "~/models/admin/audit.server";
import {
  OPERATOR_ROLES,
  changeOperatorRole,
  createOperatorAccount,
  listOperators,
  requireOperator,
  resetOperator,
  setOperatorBrands,
  setOperatorDisabled,
  type OperatorArea,
  type StaffResult,
} from "~/models/admin/operators.server";
import { line } from "~/lib/text";
import { listBrands } from "~/models/admin/brands.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "operators";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const [operators, brands] = await Promise.all([listOperators(context.env.DB), listBrands(context.env.DB)]);
  return { me: operator.id, operators, brands: brands.map((b) => ({ id: b.id, name: b.name })), title: "Operators" };
}

const id = z.string().min(1).max(100);
const intents = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create"),
    email: z.string().trim().toLowerCase().email().max(200),
    name: line(z.string().min(1).max(80)),
    role: z.enum(OPERATOR_ROLES),
  }),
  z.object({ intent: z.literal("role"), id, role: z.enum(OPERATOR_ROLES), reason: auditReason }),
  z.object({ intent: z.literal("reset_password"), id, reason: auditReason }),
  z.object({ intent: z.literal("reset_totp"), id, reason: auditReason }),
  // The action defaults to this one: a post without an intent disables or enables.
  z.object({ intent: z.literal("status"), id, disabled: z.enum(["0", "1"]), reason: auditReason }),
]);

/** A chat team member's brands: a list of ticked boxes, so read apart from the one-value forms. */
const brandsSchema = z.object({ id, brand: z.array(z.coerce.number().int().positive()).max(100) });

const FIELD_ERRORS: Record<string, string> = {
  email: "Give a valid e-mail address.",
  name: "Give a name (up to 80 characters).",
  role: "Choose a role.",
  reason: "Give a reason (at least 3 characters).",
};

type ActionData = { error: string } | { done: string; password?: string; email?: string };

export async function action({ request, context }: ActionFunctionArgs): Promise<ActionData> {
  const operator = await requireOperator(request, context, area);
  const body = await readForm(request, context);
  if (body.get("intent") === "brands") {
    const brands = brandsSchema.safeParse({ id: body.get("id"), brand: body.getAll("brand") });
    if (!brands.success) return { error: "That form was not complete." };
    return (await setOperatorBrands(context.env.DB, operator, brands.data.id, brands.data.brand))
      ? { done: "Saved." }
      : { error: "Nothing changed (not a chat team account, or an unknown brand)." };
  }
  const form = Object.fromEntries(body);
  const parsed = intents.safeParse({ intent: "status", ...form });
  if (!parsed.success)
    return { error: FIELD_ERRORS[String(parsed.error.issues[0]?.path[0])] ?? "That action is not known." };
  const input = parsed.data;
  const env = context.env;
  let result: StaffResult;
  switch (input.intent) {
    case "create": {
      const made = await createOperatorAccount(env, operator, input);
      if (!made.ok) return { error: made.error };
      return { done: `${input.email} was added as ${input.role}.`, password: made.password, email: input.email };
    }
    case "role":
      result = await changeOperatorRole(env.DB, operator, input.id, input.role, input.reason);
      return result.ok ? { done: "Role changed." } : { error: result.error };
    case "reset_password":
    case "reset_totp":
      result = await resetOperator(
        env,
        operator,
        input.id,
        input.intent === "reset_totp" ? "totp" : "password",
        input.reason,
      );
      if (!result.ok) return { error: result.error };
      return {
        done:
          input.intent === "reset_totp"
            ? "Second factor reset; their sessions ended."
            : "Password reset; their sessions ended.",
        password: result.password,
        email: (await listOperators(env.DB)).find((o) => o.id === input.id)?.email,
      };
    case "status": {
      const ok = await setOperatorDisabled(env.DB, operator, input.id, input.disabled === "1", input.reason);
      return ok
        ? { done: "Saved." }
        : { error: "Nothing changed (already so, unknown, your own account, or the last admin)." };
    }
  }
}

function ReasonField() {
  return (
    <label className="a-field">
      <span>Reason (for the audit log)</span>
      <input name="reason" required minLength={3} maxLength={500} />
    </label>
  );
}

export default function AdminOperators() {
  const { me, operators, brands } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>Operators</h1>
      <Flash result={result ? ("error" in result ? result : { done: result.done }) : null} />
      {result && "password" in result && result.password ? (
        <div className="a-card a-once" role="status">
          <p>
            One-time password for <strong>{result.email}</strong>, shown only now. Hand it over in person or by phone,
            not by e-mail: at their first login the console asks for their own password and an authenticator app.
          </p>
          <p>
            <code className="a-key">{result.password}</code>
          </p>
        </div>
      ) : null}
      <form method="post" className="a-card a-filters" aria-label="Add an operator">
        <input type="hidden" name="intent" value="create" />
        <h2 className="a-full">Add an operator</h2>
        <label className="a-field">
          <span>E-mail</span>
          <input name="email" type="email" required maxLength={200} autoComplete="off" />
        </label>
        <label className="a-field">
          <span>Name</span>
          <input name="name" required maxLength={80} autoComplete="off" />
        </label>
        <label className="a-field">
          <span>Role</span>
          <select name="role" defaultValue="moderator">
            {OPERATOR_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="a-btn">
          Add
        </button>
      </form>
      <ul className="a-stack a-operators">
        {operators.map((o) => (
          <li key={o.id} className="a-card">
            <div className="a-op-head">
              <strong className="a-code">{o.email}</strong>
              <span>{o.name}</span>
              <span className="a-badge">{o.role}</span>
              {o.hasTotp ? (
                <span className="a-badge">TOTP</span>
              ) : (
                <span className="a-badge a-badge-red">no second factor</span>
              )}
              {o.setupPending ? <span className="a-badge">setup pending</span> : null}
              {o.disabled ? (
                <span className="a-badge a-badge-red">disabled</span>
              ) : (
                <span className="a-badge a-badge-ok">active</span>
              )}
            </div>
            {o.role === "chat_team" ? (
              <form method="post" className="a-filters" aria-label={`Brands of ${o.email}`}>
                <input type="hidden" name="intent" value="brands" />
                <input type="hidden" name="id" value={o.id} />
                <span>Brands:</span>
                {brands.map((b) => (
                  <label key={b.id} className="a-check">
                    <input type="checkbox" name="brand" value={b.id} defaultChecked={o.brandIds?.includes(b.id)} />{" "}
                    {b.name}
                  </label>
                ))}
                <button type="submit" className="a-btn a-btn-quiet">
                  Save brands
                </button>
                {o.brandIds ? null : <span className="a-muted">none ticked: every brand</span>}
              </form>
            ) : null}
            {o.id === me ? (
              <p className="a-muted">Your own account: another admin changes it.</p>
            ) : (
              <details>
                <summary>Manage {o.email}</summary>
                <div className="a-op-forms">
                  <form method="post" aria-label={`Change the role of ${o.email}`}>
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="id" value={o.id} />
                    <label className="a-field">
                      <span>Role</span>
                      <select name="role" defaultValue={o.role}>
                        {OPERATOR_ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    </label>
                    <ReasonField />
                    <button type="submit" className="a-btn">
                      Change role
                    </button>
                  </form>
                  <form method="post" aria-label={`Reset the password of ${o.email}`}>
                    <input type="hidden" name="intent" value="reset_password" />
                    <input type="hidden" name="id" value={o.id} />
                    <ReasonField />
                    <button type="submit" className="a-btn a-btn-quiet">
                      Reset password
                    </button>
                  </form>
                  <form method="post" aria-label={`Reset the second factor of ${o.email}`}>
                    <input type="hidden" name="intent" value="reset_totp" />
                    <input type="hidden" name="id" value={o.id} />
                    <ReasonField />
                    <button type="submit" className="a-btn a-btn-quiet">
                      Reset second factor
                    </button>
                  </form>
                  <form method="post" aria-label={`${o.disabled ? "Enable" : "Disable"} ${o.email}`}>
                    <input type="hidden" name="intent" value="status" />
                    <input type="hidden" name="id" value={o.id} />
                    <input type="hidden" name="disabled" value={o.disabled ? "0" : "1"} />
                    <ReasonField />
                    <button type="submit" className="a-btn a-btn-quiet">
                      {o.disabled ? "Enable" : "Disable"}
                    </button>
                  </form>
                </div>
              </details>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
