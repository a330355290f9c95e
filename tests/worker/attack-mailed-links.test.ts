/**
 * The attacker's view of mailed links (decision 085): a request sent with `Host: evil.test` (or
 * any other host) must never make a mailed link point there. Links come from the brand's domain.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sessionCookie } from "./fixtures";
import { lastMailTo, memberWithPassword, signupForm } from "./accounts-support";

/** A form post whose Host header the attacker chose (the Origin matches it, as a direct client would send). */
function postAs(host: string, path: string, form: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = {
    Host: host,
    Origin: `http://${host}`,
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if (cookie) headers.Cookie = cookie;
  return SELF.fetch(`http://${host}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form),
    redirect: "manual",
  });
}

const links = (text: string) => [...text.matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => new URL(m[0]).hostname);

describe("mailed links use the brand's configured domain", () => {
  it("reset, sign-up, e-mail change and reactivation ignore the Host header", async () => {
    const m = await memberWithPassword();
    await postAs("evil.test", "/reset-password", { email: m.email });
    const reset = await lastMailTo(m.email);
    expect(reset?.text).toContain("/reset-password/do?token=");
    expect(links(reset!.text)).not.toContain("evil.test");
    expect(links(reset!.text)).toContain("localhost");

    const form = signupForm();
    await postAs("evil.test", "/signup", form);
    const activation = await lastMailTo(form.email);
    expect(activation?.text).toContain("/signup/confirm?token=");
    expect(links(activation!.text).every((h) => h === "localhost")).toBe(true);

    const cookie = await sessionCookie(m.id);
    const fresh = `fresh-${Date.now()}@example.com`;
    await postAs("evil.test", "/settings", { intent: "email", new_email: fresh, password: "Demo-pass-2026" }, cookie);
    const change = await lastMailTo(fresh);
    expect(change?.text).toContain("/mail-change/do?token=");
    expect(links(change!.text).every((h) => h === "localhost")).toBe(true);

    await postAs(
      "evil.test",
      "/settings/delete?step=reasons",
      { intent: "delete", reason: "time", remarks: "" },
      cookie,
    );
    const reactivate = await lastMailTo(m.email);
    expect(reactivate?.text).toContain("/reactivate?token=");
    expect(links(reactivate!.text).every((h) => h === "localhost")).toBe(true);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE text LIKE '%evil.test%'").first("n")).toBe(
      0,
    );
  });

  it("a brand's own hostname gives that brand's links", async () => {
    const m = await memberWithPassword({ brandId: 2 });
    await postAs("de.localhost", "/reset-password", { email: m.email });
    expect(links((await lastMailTo(m.email))!.text)).toContain("de.localhost");
  });
});
