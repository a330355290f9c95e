import { Component, type ReactNode } from "react";
import { useTranslation } from "~/lib/i18n-react";

/** docs/product/validation.md §8: the message (default 'Error') and status (default 500); a 404 has its own text and link. */
export function ErrorPage({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation();
  const notFound = status === 404;
  return (
    <div className="container error-page">
      <p className="error-status">{status}</p>
      <h1>{notFound ? t("error.notFound") : message || t("error.default")}</h1>
      {notFound ? (
        <a href="/" className="btn btn-primary">
          {t("error.backHome")}
        </a>
      ) : (
        <p className="text-muted">{t("error.generic")}</p>
      )}
    </div>
  );
}

/** If the error page itself fails, a last plain fallback (docs/product/validation.md §8), readable without i18n. */
export class ErrorPageGuard extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="container error-page">
        <h1>An error occurred while showing the error page</h1>
        <pre className="error-details">{this.state.error.message}</pre>
        <a href="/">Go back to home</a>
      </div>
    );
  }
}
