import { describe, expect, it } from "vitest";
import { memberPrompts, promptOnPage, type PromptFacts } from "../../app/lib/member-alerts";

const newMember: PromptFacts = {
  status: "not_confirmed",
  profileStatus: "disabled",
  notificationsDisabled: [],
  hasMainImage: false,
  pushSubscribed: false,
  unreadMessages: 0,
  newLikes: 0,
};

describe("one member prompt at a time (decision 179)", () => {
  it("lists the due prompts by priority: address, mail that does not arrive, push when someone wrote, discount, photo", () => {
    expect(memberPrompts(newMember, true)).toEqual(["activation", "welcomeOffer", "photo"]);
    const confirmed = { ...newMember, status: "confirmed", profileStatus: "active" };
    expect(memberPrompts(confirmed, true)).toEqual(["welcomeOffer", "photo"]);
    // Push is asked when someone has written, not on arrival, and not once subscribed.
    expect(memberPrompts({ ...confirmed, newLikes: 3 }, true)).toEqual(["welcomeOffer", "photo"]);
    expect(memberPrompts({ ...confirmed, unreadMessages: 1 }, true)).toEqual(["push", "welcomeOffer", "photo"]);
    expect(memberPrompts({ ...confirmed, unreadMessages: 1, pushSubscribed: true }, false)).toEqual(["photo"]);
    expect(memberPrompts({ ...confirmed, hasMainImage: true, notificationsDisabled: ["new_message"] }, false)).toEqual([
      "disabledNotifications",
    ]);
    // A bounced address outranks the offer and the photo.
    expect(memberPrompts({ ...confirmed, notificationsDisabled: ["new_message"] }, true)).toEqual([
      "disabledNotifications",
      "welcomeOffer",
      "photo",
    ]);
  });

  it("a page shows only the first prompt it may show", () => {
    const prompts = memberPrompts(newMember, true);
    expect(promptOnPage(prompts, "/members")).toBe("activation");
    // The address reminder is not shown on /settings: the discount is, and still only it.
    expect(promptOnPage(prompts, "/settings")).toBe("welcomeOffer");
    expect(promptOnPage(["push", "photo"], "/notifications")).toBeNull();
    expect(promptOnPage(["push", "photo"], "/members")).toBe("push");
    expect(promptOnPage(["photo"], "/profile")).toBeNull();
    expect(promptOnPage(undefined, "/members")).toBeNull();
  });
});
