import { Form } from "@remix-run/react";

/**
 * The internal complaint's form (DSA Art. 20), the same for a member's appeal against a decision and a
 * reporter's request to review a "no action": the explanation, the deadline, and the refusal above it.
 * With nothing to ask (closed, or out of time) only a refusal shows.
 */
export function AppealForm({
  form,
  intro,
  error,
}: {
  form: { title?: string; deadline: string; explanation: string; submit: string } | null | undefined;
  intro: string;
  error: string | undefined;
}) {
  const refusal = error ? (
    <p className="alert alert-danger" role="alert">
      {error}
    </p>
  ) : null;
  if (!form) return refusal;
  return (
    <Form
      method="post"
      className="card form-card appeal"
      aria-labelledby={form.title ? "appeal-form-title" : undefined}
    >
      {form.title ? <h2 id="appeal-form-title">{form.title}</h2> : null}
      <p>{intro}</p>
      <p className="field-hint">{form.deadline}</p>
      {refusal}
      <label className="field">
        <span>{form.explanation}</span>
        <textarea name="explanation" rows={6} required minLength={10} maxLength={3000} />
      </label>
      <button type="submit" className="btn btn-primary btn-block">
        {form.submit}
      </button>
    </Form>
  );
}
