/** The operator console's URLs (/admin and below): they render without the member site's chrome and JavaScript. */
export const isAdminPath = (pathname: string) => /^\/admin(?:[/.]|$)/.test(pathname);
