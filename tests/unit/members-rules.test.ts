import { describe, expect, it } from "vitest";
import { memberAlertShown, type MemberAlert } from "../../app/lib/member-alerts";
import { photoAccess, variantToServe } from "../../app/models/photos.server";
import { likeStateOf, profileAccess } from "../../app/models/profiles.server";
import { birthDateRange, resolveFilters, wantedGender } from "../../app/models/search.server";

const photoAlertHiddenOn = (pathname: string, search = "") => !memberAlertShown("photo", pathname, search);

describe("profile-photo alert screens (docs/product/states.md §4)", () => {
  it("is hidden on profile, signup, activate-done, premium, notifications, directdebit and settings", () => {
    for (const p of [
      "/profile",
      "/profile/photos",
      "/signup",
      "/signup-matches",
      "/activate/done",
      "/premium",
      "/notifications",
      "/directdebit",
      "/settings",
      "/members/abc/signup",
    ]) {
      expect(photoAlertHiddenOn(p), p).toBe(true);
    }
    for (const p of ["/members", "/members/abc", "/likes", "/chats", "/swipe-game", "/profiles"])
      expect(photoAlertHiddenOn(p), p).toBe(false);
    // The sign-up step asking for a photo does not get the photo alert on top; the other steps do.
    expect(photoAlertHiddenOn("/complete-signup", "?step=photo")).toBe(true);
    expect(photoAlertHiddenOn("/complete-signup", "?step=location")).toBe(false);
    expect(photoAlertHiddenOn("/complete-signup", "")).toBe(false);
  });
});

describe("member alerts on the payment pages (decision 151)", () => {
  const alerts: MemberAlert[] = ["activation", "push", "disabledNotifications", "photo"];
  it("shows none of the chrome's alerts where a member pays: what they buy and the pay button come first", () => {
    const paying = [
      "/credits",
      "/credits/p1",
      "/credits/p1/ideal",
      "/credits/repeat-order",
      "/premium",
      "/directdebit",
      "/transactions",
      "/transactions/abc",
    ];
    for (const a of alerts) for (const p of paying) expect(memberAlertShown(a, p), `${a} on ${p}`).toBe(false);
  });
  it("still shows them on the members' other pages", () => {
    for (const a of alerts)
      for (const p of ["/members", "/chats", "/likes", "/creditsx"])
        expect(memberAlertShown(a, p), `${a} on ${p}`).toBe(true);
  });
});

describe("photo access", () => {
  const facts = { ownerId: "o", ownerGone: false, blockedByOwner: false, isMain: false, isPrivate: false, shown: true };
  it("never hands the full file to visitors or free members", () => {
    for (const viewer of [null, { id: "f", paidUser: false }]) {
      for (const asked of ["full", "thumb", "blur"] as const)
        expect(variantToServe(photoAccess(facts, viewer), asked)).toBe("blur");
    }
  });
  it("lets the owner see everything, even when gone", () => {
    expect(photoAccess({ ...facts, isPrivate: true, ownerGone: true }, { id: "o", paidUser: false })).toBe("full");
  });
  it("keeps a photo waiting for review to its owner: no variant, not even the blur, for anyone else", () => {
    const pending = { ...facts, isMain: true, shown: false };
    expect(photoAccess(pending, { id: "o", paidUser: false })).toBe("full");
    for (const viewer of [null, { id: "f", paidUser: false }, { id: "p", paidUser: true }])
      for (const asked of ["full", "thumb", "blur"] as const)
        expect(variantToServe(photoAccess(pending, viewer), asked)).toBeNull();
  });
});

describe("profile rules", () => {
  it("derives like states", () => {
    expect(likeStateOf("me", [])).toBe("none");
    expect(likeStateOf("me", ["me"])).toBe("sent");
    expect(likeStateOf("me", ["you"])).toBe("received");
    expect(likeStateOf("me", ["me", "you"])).toBe("match");
  });
  it("answers not_found / blocked / ok", () => {
    const t = { id: "t", deleted: false, disabled: false, blockedViewer: false };
    expect(profileAccess(null, null)).toBe("not_found");
    expect(profileAccess({ ...t, deleted: true }, null)).toBe("not_found");
    expect(profileAccess({ ...t, disabled: true }, { id: "v", paidUser: true })).toBe("not_found");
    expect(profileAccess({ ...t, disabled: true }, { id: "t", paidUser: false })).toBe("ok");
    expect(profileAccess({ ...t, blockedViewer: true }, { id: "v", paidUser: true })).toBe("blocked");
  });
});

describe("search filters", () => {
  it("turns ages into an inclusive date-of-birth range", () => {
    expect(birthDateRange(30, 40, new Date("2026-03-10T00:00:00Z"))).toEqual({ from: "1985-03-11", to: "1996-03-10" });
  });
  it("defaults to the wanted gender and a served country, swaps reversed ages, ignores bad input", () => {
    const d = { gender: wantedGender("male", "hetero"), country: "NL", countries: ["NL", "DE"] };
    expect(resolveFilters(new URLSearchParams("min_age=50&max_age=30&country=XX&gender=robot"), d)).toEqual({
      gender: "female",
      country: "NL",
      countryregion: "",
      min_age: 30,
      max_age: 50,
      online: false,
      photo: false,
      distance: null,
      page: 1,
    });
    expect(wantedGender("male", "gay")).toBe("male");
    expect(wantedGender("female", "lesbian")).toBe("female");
  });
});
