/** An action's answer on a console page: its error (role alert) or what was done (status). */
export function Flash({ result }: { result: { error: string } | { done: string } | null | undefined }) {
  if (!result) return null;
  return "error" in result ? (
    <p className="a-error" role="alert">
      {result.error}
    </p>
  ) : (
    <p className="a-ok" role="status">
      {result.done}
    </p>
  );
}
