import { describe, expect, it } from "vitest";
import { PASSWORD_ITERATIONS, hashPassword, iterationsOf, verifyPassword } from "~/lib/password";
import { validAgeOn, signupSchema } from "~/models/account-forms";
import { sexualityOf, signupAllowed, trackingFrom } from "~/models/signup-rules";
import { showActivationReminder } from "~/components/alerts/ActivationReminder";

describe("password hashing", () => {
  it("uses PBKDF2 with exactly 100,000 iterations (the Workers production cap)", async () => {
    expect(PASSWORD_ITERATIONS).toBe(100_000);
    const stored = await hashPassword("Demo-pass-2026", "pepper");
    expect(stored.startsWith("pbkdf2-sha256$100000$")).toBe(true);
    expect(iterationsOf(stored)).toBe(100_000);
    expect(await verifyPassword("Demo-pass-2026", stored, "pepper")).toBe(true);
    expect(await verifyPassword("Demo-pass-2026", stored, "other-pepper")).toBe(false);
  });
});

describe("validAgeOn (the sign-up's date check; ageOn itself is tested in dates.test.ts)", () => {
  const today = new Date(Date.UTC(2026, 5, 15));
  it("answers the age of a real date", () => {
    expect(validAgeOn("2008-06-15", today)).toBe(18);
  });
  it("rejects dates that do not exist", () => {
    expect(validAgeOn("1990-02-30", today)).toBeNull();
    expect(validAgeOn("15-06-1990", today)).toBeNull();
  });
});

describe("sign-up schema", () => {
  const today = new Date(Date.UTC(2026, 5, 15));
  const parse = (o: Record<string, string>) =>
    signupSchema(18, today).safeParse({
      email: "a@example.com",
      name: "Anna",
      date_of_birth: "1990-01-01",
      password: "Demo-pass-2026",
      ...o,
    });
  const messages = (o: Record<string, string>) => {
    const r = parse(o);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };
  it("accepts a valid sign-up", () => expect(parse({}).success).toBe(true));
  it("refuses the username equal to the e-mail (any case) and one starting with @", () => {
    expect(messages({ name: "A@Example.com" })).toContain("errors.nameIsEmail");
    expect(messages({ name: "@anna" })).toContain("errors.nameAt");
  });
  it("asks for a date of birth at least the minimum age", () => {
    expect(messages({ date_of_birth: "2008-06-16" })).toContain("errors.tooYoung");
    expect(messages({ date_of_birth: "2008-06-15" })).toEqual([]);
    expect(messages({ date_of_birth: "1800-01-01" })).toContain("errors.dobInvalid");
  });
  it("fails a filled-in honeypot", () => expect(parse({ website: "x" }).success).toBe(false));
});

describe("sign-up setting", () => {
  it("is open for all, needs network or ref for with_trafficsource, and is invite-only otherwise", () => {
    const none = { network: null, ref: null };
    expect(signupAllowed("all", none)).toBe("open");
    expect(signupAllowed("with_trafficsource", none)).toBe("needs_source");
    expect(signupAllowed("with_trafficsource", { network: "n", ref: null })).toBe("open");
    expect(signupAllowed("with_trafficsource", { network: null, ref: "r" })).toBe("open");
    expect(signupAllowed("other", { network: "n", ref: "r" })).toBe("invite_only");
    expect(signupAllowed("other", none)).toBe("invite_only");
    // sub1-sub3 and lb describe a campaign, not a source.
    expect(signupAllowed("with_trafficsource", trackingFrom(new URLSearchParams("sub1=a&sub2=b&sub3=c&lb=d")))).toBe(
      "needs_source",
    );
  });
  it("gives the sexuality from the gender and whom they look for", () => {
    expect(sexualityOf("female", "male")).toBe("hetero");
    expect(sexualityOf("male", "female")).toBe("hetero");
    expect(sexualityOf("male", "male")).toBe("gay");
    expect(sexualityOf("female", "female")).toBe("lesbian");
    expect(sexualityOf("female", "both")).toBe("bi");
  });
  it("reads the tracking data from the query", () => {
    expect(trackingFrom(new URLSearchParams("network=a&ref=b&sub1=c&sub3=%20"))).toEqual({
      network: "a",
      ref: "b",
      sub1: "c",
      sub2: null,
      sub3: null,
      lb: null,
    });
  });
});

describe("activation reminder (docs/product/states.md §4)", () => {
  const unconfirmed = { status: "not_confirmed", profileStatus: "disabled", notificationsDisabled: [] as string[] };
  it("shows for a not-confirmed member with a disabled profile and no disabled notifications", () => {
    expect(showActivationReminder(unconfirmed, "/members")).toBe(true);
  });
  it("hides on signup, settings and notifications, for visitors, confirmed members and disabled notifications", () => {
    for (const path of ["/signup", "/settings", "/settings/delete", "/notifications"])
      expect(showActivationReminder(unconfirmed, path)).toBe(false);
    expect(showActivationReminder(null, "/members")).toBe(false);
    // The sign-up step asking for the confirmation does not get the alert on top; the other steps do.
    expect(showActivationReminder(unconfirmed, "/complete-signup", "?step=confirm")).toBe(false);
    expect(showActivationReminder(unconfirmed, "/complete-signup", "?step=about")).toBe(true);
    expect(showActivationReminder({ ...unconfirmed, status: "confirmed" }, "/members")).toBe(false);
    expect(showActivationReminder({ ...unconfirmed, profileStatus: "active" }, "/members")).toBe(false);
    expect(showActivationReminder({ ...unconfirmed, notificationsDisabled: ["news"] }, "/members")).toBe(false);
  });
});
