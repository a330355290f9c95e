/** The operator console's URLs (/admin and below): they render without the member site's chrome and JavaScript. */
export const isAdminPath = (pathname: string) => /^\/admin(?:[/.]|$)/.test(pathname);

/**
 * The console's own hostname (the ADMIN_HOST setting, decision 205): when set, /admin and /api/admin
 * answer 404 on every other host (every brand's public domain), so only the host behind Cloudflare
 * Access serves them. Unset (development): every host.
 */
export function consoleHostRefused(url: URL, adminHost: string | undefined): boolean {
  if (!adminHost) return false;
  const consolePath = isAdminPath(url.pathname) || /^\/api\/admin(?:[/.]|$)/.test(url.pathname);
  return consolePath && url.hostname.toLowerCase() !== adminHost.trim().toLowerCase();
}
