import type { FieldMetadata } from "@conform-to/react";
import { getInputProps } from "@conform-to/react";
import { Errors } from "./Errors";

export { Errors };

type InputType = "text" | "email" | "password" | "date" | "hidden" | "tel";

/** A labelled input wired to conform (name, id, aria-invalid, defaultValue after a failed post). */
export function Field({
  field,
  label,
  type = "text",
  autoComplete,
  vars,
  hint,
  ns,
  inputMode,
  className,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  type?: InputType;
  autoComplete?: string;
  vars?: Record<string, unknown>;
  hint?: string;
  ns?: string;
  inputMode?: "text" | "numeric" | "tel";
  className?: string;
}) {
  const props = getInputProps(field, { type });
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label htmlFor={field.id}>{label}</label>
      <input {...props} key={props.key} autoComplete={autoComplete} inputMode={inputMode} />
      {hint ? <small className="field-hint">{hint}</small> : null}
      <Errors id={field.errorId} errors={field.errors} vars={vars} ns={ns} />
    </div>
  );
}

/** A notice after a successful post (mail sent, setting saved). */
export function Notice({ text }: { text?: string | null }) {
  return text ? (
    <p className="alert alert-success" role="status">
      {text}
    </p>
  ) : null;
}
