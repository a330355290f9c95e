/** Helpers for the accounts worker tests: form posts as a browser sends them, the outbox, links. */
import { env, SELF } from "cloudflare:test";
import { hashPassword } from "../../app/lib/password";
import { createMember } from "./fixtures";

export const PASSWORD = "Demo-pass-2026";

/** A POST (form or JSON) with a fresh client address each time, so abuse throttling stays out of the way. */
export function send(
  path: string,
  body: Record<string, string> | object,
  o: { host?: string; cookie?: string; method?: string; json?: boolean; headers?: Record<string, string> } = {},
) {
  const host = o.host ?? "localhost";
  const headers: Record<string, string> = {
    Host: host,
    Origin: `http://${host}`,
    "CF-Connecting-IP": `10.${rand()}.${rand()}.${rand()}`,
    "Content-Type": o.json ? "application/json" : "application/x-www-form-urlencoded",
    ...o.headers,
  };
  if (o.cookie) headers.Cookie = o.cookie;
  return SELF.fetch(`http://${host}${path}`, {
    method: o.method ?? "POST",
    headers,
    body: o.json ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>),
    redirect: "manual",
  });
}
const rand = () => Math.floor(Math.random() * 250) + 1;

/** "name=value" pairs of every Set-Cookie of a response, as a Cookie header. */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.replace(/;.*/s, ""))
    .filter((c) => !c.endsWith("="))
    .join("; ");
}

export async function lastMailTo(to: string) {
  return env.DB.prepare('SELECT subject, text, html FROM mail_outbox WHERE "to" = ?1 ORDER BY id DESC LIMIT 1')
    .bind(to)
    .first<{ subject: string; text: string; html: string }>();
}

/** The token of the newest link to `path` mailed to `to`. */
export async function mailedToken(to: string, path: string): Promise<string> {
  const mail = await lastMailTo(to);
  const m = new RegExp(`${path.replace(/\//g, "\\/")}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? "");
  if (!m) throw new Error(`no ${path} link mailed to ${to}: ${mail?.text}`);
  return m[1]!;
}

/**
 * A sign-up through the form as a member makes it (decision 224): the form's post answers "check your
 * e-mail", the mailed link's button creates the account. The link's answer: a redirect into the site
 * with the session, or the refusal page.
 */
export async function signUp(
  form: Record<string, string>,
  o: { host?: string; cookie?: string; headers?: Record<string, string>; path?: string } = {},
) {
  const sent = await send(o.path ?? "/signup", form, o);
  if (sent.headers.get("Location") !== "/signup/sent")
    throw new Error(`sign-up of ${form.email} not answered with /signup/sent: ${sent.status} ${await sent.text()}`);
  const token = await mailedToken(form.email!.trim().toLowerCase(), "/signup/confirm");
  return send("/signup/confirm", { token }, { host: o.host, cookie: o.cookie, headers: o.headers });
}

/** A member with a real password hash (createMember stores a placeholder). */
export async function memberWithPassword(o: Parameters<typeof createMember>[0] = {}) {
  return createMember({ ...o, passwordHash: await hashPassword(PASSWORD, env.PASSWORD_PEPPER) });
}

let n = 0;
export const uniqueEmail = (tag = "acc") => `${tag}-${Date.now().toString(36)}-${++n}@example.com`;

/** The fields of a valid sign-up. */
export function signupForm(o: Record<string, string> = {}) {
  return {
    email: uniqueEmail("signup"),
    name: `Sunny${++n}`,
    date_of_birth: "1990-04-02",
    password: PASSWORD,
    signup_message: "Hi!",
    ...o,
  };
}

/** HTML as the browser shows it (React escapes apostrophes). */
export async function pageText(res: Response) {
  return (await res.text())
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}
