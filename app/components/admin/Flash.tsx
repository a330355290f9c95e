/**
 * An action's answer on a console page: its error (role alert) or what was done (status). Other answers
 * (a confirmation step) render nothing here.
 */
export function Flash({ result }: { result: object | null | undefined }) {
  if (result && "error" in result && typeof result.error === "string")
    return (
      <p className="a-error" role="alert">
        {result.error}
      </p>
    );
  if (result && "done" in result && typeof result.done === "string")
    return (
      <p className="a-ok" role="status">
        {result.done}
      </p>
    );
  return null;
}
