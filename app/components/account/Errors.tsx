import { useTranslation } from "~/lib/i18n-react";

/**
 * Translated messages of a field or form: conform carries "errors.*" keys of the account namespace;
 * a number after "|" is the {{minutes}} of the lockout message. Another area's form passes its namespace.
 */
export function Errors({
  id,
  errors,
  vars,
  form = false,
  ns = "account",
}: {
  id?: string;
  errors?: string[];
  vars?: Record<string, unknown>;
  form?: boolean;
  ns?: string;
}) {
  const { t } = useTranslation(ns);
  if (!errors?.length) return null;
  const text = errors.map((e) => {
    const [key, minutes] = e.split("|");
    return t(key!, minutes ? { ...vars, minutes: Number(minutes) } : vars);
  });
  return (
    <p id={id} className={form ? "alert alert-danger" : "field-error"} role="alert">
      {text.join(" ")}
    </p>
  );
}
