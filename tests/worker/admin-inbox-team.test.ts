/**
 * The team inbox, continued (decisions 210, 211): a team-run profile's photo through the members'
 * pipeline, the reply figures (answered in time, median and p90
 * first reply per brand and team member, credits returned; clock held), the persona's age and town in
 * a reply, and a chat team member limited to their brands.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { claimConversation, teamReply } from "../../app/models/admin/inbox.server";
import { teamFigures } from "../../app/models/admin/team-figures.server";
import type { Operator } from "../../app/models/admin/operators.server";
import { returnUnansweredCredits } from "../../app/models/team.server";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { EXIF_JPEG, bytesOf } from "./images";
import { cid, connect, cookieOf, PRICES, roomCount } from "./chat-support";
import { asRole, replyForm, teamRow, waitingMember } from "./team-support";

const asOperator = (op: { id: string; role: Operator["role"] }) => ({
  id: op.id,
  email: "",
  name: `Test ${op.role}`,
  role: op.role,
});

/** Claims and replies as `op` at the held time `at`. */
async function replyAt(op: ReturnType<typeof asOperator>, conversationId: string, at: number) {
  expect(await claimConversation(env.DB, op, conversationId, at)).toEqual({ ok: true });
  const r = await teamReply(env, op, conversationId, { body: "Nice to hear from you!", clientId: `team-${cid()}` }, at);
  expect(r).toMatchObject({ ok: true });
}

describe("the reply figures", () => {
  it("share answered in time, median and p90 first reply per brand and team member, credits returned (clock held)", async () => {
    // A brand of its own figures: brand 2, so other tests' replies do not mix in.
    const [a, b, c] = [
      await waitingMember(undefined, { brandId: 2 }),
      await waitingMember(undefined, { brandId: 2 }),
      await waitingMember(undefined, { brandId: 2 }),
    ];
    const since = async (x: { conversationId: string }) => (await teamRow(x.conversationId))!.waiting_since!;
    const [ta, tb, tc] = [await since(a), await since(b), await since(c)];
    const x = asOperator(await asRole("chat_team"));
    const y = asOperator(await asRole("chat_team"));
    // x answers a after 10 minutes: in time.
    await replyAt(x, a.conversationId, ta + 600);
    // b and c wait past the 24 h window: their credits go back; y answers b afterwards (late).
    await returnUnansweredCredits(env, Math.max(tb, tc) + 25 * 3600);
    await replyAt(y, b.conversationId, tb + 26 * 3600);
    const from = Math.min(ta, tb, tc) - 10;
    const figures = await teamFigures(env.DB, asOperator(await asRole("admin")), from, from + 30 * 86_400);
    const brand2 = figures.byBrand.find((f) => f.brandId === 2)!;
    // Three paid messages: one answered in time, one returned then answered, one returned unanswered.
    expect(brand2).toMatchObject({ paid: 3, paidInTime: 1, creditsReturned: 2 * PRICES.message, replies: 2 });
    expect(brand2.share).toBeCloseTo(1 / 3);
    expect(brand2.median).toBe(600);
    expect(brand2.p90).toBe(26 * 3600);
    expect(figures.byOperator.find((o) => o.operatorId === x.id)).toMatchObject({ replies: 1, median: 600, p90: 600 });
    expect(figures.byOperator.find((o) => o.operatorId === y.id)).toMatchObject({ median: 26 * 3600 });
    // The page shows them to the chat team and the admin.
    const team = await asRole("chat_team");
    const page = await (await get("/admin/inbox/figures", { cookie: team.cookie })).text();
    expect(page).toContain("Paid messages answered in time");
    const moderator = await asRole("moderator");
    expect((await get("/admin/inbox/figures", { cookie: moderator.cookie })).status).toBe(403);
  });
});

describe("the persona's own facts", () => {
  it("a reply stating another age or another known town as home is refused; the profile's own pass", async () => {
    const { profile, conversationId } = await waitingMember();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT OR IGNORE INTO cities (id, name, country, region_code, lat, lon, population) VALUES (990001, 'Zwolle', 'NL', '', 52.5125, 6.0944, 130000), (990002, 'Amsterdam', 'NL', '', 52.37, 4.89, 900000)",
      ),
      // 31 on any day of the test run's year (born on January 1st, 31 years before).
      env.DB.prepare("UPDATE profiles SET date_of_birth = ?2, city = 'Zwolle' WHERE user_id = ?1").bind(
        profile.id,
        `${new Date().getUTCFullYear() - 31}-01-01`,
      ),
    ]);
    const team = await asRole("chat_team");
    await get(`/admin/inbox/${conversationId}`, { cookie: team.cookie });
    for (const [body, reason] of [
      ["Haha no, I'm 25 and I love cycling", "an age other than the profile"],
      ["Ik ben 25 jaar, jij?", "an age other than the profile"],
      ["I live in Amsterdam, near the canals", "another town"],
      ["Ich wohne in Amsterdam", "another town"],
    ] as const) {
      const html = await (
        await post(`/admin/inbox/${conversationId}`, replyForm(body), { cookie: team.cookie })
      ).text();
      expect(html, body).toContain("Not sent.");
      expect(html, body).toContain(reason);
    }
    expect(await roomCount(conversationId)).toBe(1);
    const ok = await post(`/admin/inbox/${conversationId}`, replyForm("I'm 31 and I live in Zwolle, you?"), {
      cookie: team.cookie,
    });
    expect(ok.status).toBe(302);
    expect(await roomCount(conversationId)).toBe(2);
  });
});

describe("a chat team member limited to their brands", () => {
  it("sees, opens and answers only their brands' conversations and team-run profiles; the admin sets the brands (audited)", async () => {
    const one = await waitingMember(undefined, { brandId: 1 });
    const two = await waitingMember(undefined, { brandId: 2 });
    const team = await asRole("chat_team");
    const admin = await asRole("admin");
    const set = await post("/admin/operators", { intent: "brands", id: team.id, brand: "2" }, { cookie: admin.cookie });
    expect(await set.text()).toContain("Saved.");
    expect((await auditRows(team.id)).map((r) => r.action)).toContain("operator.brands");
    const list = await (await get("/admin/inbox", { cookie: team.cookie })).text();
    expect(list).toContain(`/admin/inbox/${two.conversationId}"`);
    expect(list).not.toContain(`/admin/inbox/${one.conversationId}"`);
    // Another brand's conversation: not found, not claimed, no reply.
    expect((await get(`/admin/inbox/${one.conversationId}`, { cookie: team.cookie })).status).toBe(404);
    expect((await teamRow(one.conversationId))!.claimed_by).toBeNull();
    await post(`/admin/inbox/${one.conversationId}`, replyForm("Hi"), { cookie: team.cookie });
    expect(await roomCount(one.conversationId)).toBe(1);
    // Team-run profiles: only brand 2's.
    const profiles = await (await get("/admin/team-profiles", { cookie: team.cookie })).text();
    expect(profiles).toContain(`/admin/team-profiles/${two.profile.id}"`);
    expect(profiles).not.toContain(`/admin/team-profiles/${one.profile.id}"`);
    expect((await get(`/admin/team-profiles/${one.profile.id}`, { cookie: team.cookie })).status).toBe(404);
    // The admin is never limited, and only a chat team account can be.
    expect(await (await get("/admin/inbox", { cookie: admin.cookie })).text()).toContain(one.conversationId);
    const moderator = await asRole("moderator");
    const refused = await post(
      "/admin/operators",
      { intent: "brands", id: moderator.id, brand: "2" },
      { cookie: admin.cookie },
    );
    expect(await refused.text()).toContain("Nothing changed");
  });
});

describe("a team-run profile with a photo", () => {
  const uploadAs = (cookie: string, id: string) => {
    const form = new FormData();
    form.set("intent", "photo");
    form.set("photo", new File([bytesOf(EXIF_JPEG)], "a.jpg"));
    return SELF.fetch(`http://localhost/admin/team-profiles/${id}`, {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: { Host: "localhost", Origin: "http://localhost", Cookie: cookie },
    });
  };

  it("the chat team creates one and uploads a photo: re-encoded, in the moderators' review, shown to members once approved", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO cities (id, name, country, region_code, lat, lon, population) VALUES (990001, 'Zwolle', 'NL', '', 52.5125, 6.0944, 130000)",
    ).run();
    const team = await asRole("chat_team");
    const created = await post(
      "/admin/team-profiles",
      {
        intent: "save",
        brandId: "1",
        name: "Fenna",
        gender: "female",
        dateOfBirth: "1993-05-06",
        country: "NL",
        city: "Zwolle",
        aboutMe: "Books and long walks.",
        languages: "nl",
        notes: "Librarian.",
      },
      { cookie: team.cookie },
    );
    const id = created.headers.get("Location")!.split("/").pop()!;
    const res = await uploadAs(team.cookie, id);
    expect(await res.text()).toContain("Photo added");
    const photo = await env.DB.prepare(
      "SELECT ph.id, ph.review, p.main_photo_id AS main FROM photos ph JOIN profiles p ON p.user_id = ph.user_id WHERE ph.user_id = ?1",
    )
      .bind(id)
      .first<{ id: string; review: string; main: string }>();
    expect(photo).toMatchObject({ review: "pending" });
    expect(photo!.main).toBe(photo!.id);
    // Re-encoded by the members' pipeline: three variants, none of them the uploaded bytes (EXIF gone).
    for (const v of ["full", "thumb", "blur"]) {
      const object = await env.PHOTOS.get(`photos/${photo!.id}/${v}.webp`);
      expect(object, v).not.toBeNull();
      expect(new Uint8Array(await object!.arrayBuffer())).not.toEqual(bytesOf(EXIF_JPEG));
    }
    expect((await auditRows(id)).map((r) => r.action)).toContain("team_profile.photo");
    // The editor shows it (its own console route), waiting for review.
    const editor = await (await get(`/admin/team-profiles/${id}`, { cookie: team.cookie })).text();
    expect(editor).toContain(`/admin/team-photo/${photo!.id}/thumb`);
    expect(editor).toContain("waiting for review");
    expect((await get(`/admin/team-photo/${photo!.id}/thumb`, { cookie: team.cookie })).status).toBe(200);
    // A member does not see it before review (the brand reviews before showing)...
    const member = await sessionCookie((await createMember({ paidUser: true })).id);
    expect(await (await get(`/members/${id}`, { cookie: member })).text()).not.toContain(photo!.id);
    // ...it is in the moderators' review queue like a member's photo, and shows once approved.
    const moderator = await operatorCookie((await createOperator("moderator")).id);
    expect(await (await get("/admin/photos", { cookie: moderator })).text()).toContain(photo!.id);
    await post("/admin/photos", { intent: "approve", photo: photo!.id }, { cookie: moderator });
    expect(await (await get(`/members/${id}`, { cookie: member })).text()).toContain(photo!.id);
    // A member's photo is not the chat team's to see.
    const other = await createMember();
    await env.DB.prepare(
      "INSERT INTO photos (id, user_id, width, height, review) VALUES ('real-photo-1', ?1, 10, 10, 'pending')",
    )
      .bind(other.id)
      .run();
    expect((await get("/admin/team-photo/real-photo-1/thumb", { cookie: team.cookie })).status).toBe(404);
  });
});

describe("live", () => {
  it("the member sees the profile typing while its team member writes; only the claim's holder can say so", async () => {
    const { profile, member, conversationId } = await waitingMember();
    const socket = await connect(conversationId, await cookieOf(member.id));
    const [holder, other] = [await asRole("chat_team"), await asRole("chat_team")];
    await get(`/admin/inbox/${conversationId}`, { cookie: holder.cookie });
    expect((await post(`/admin/inbox/${conversationId}/typing`, {}, { cookie: other.cookie })).status).toBe(409);
    expect((await post(`/admin/inbox/${conversationId}/typing`, {}, { cookie: holder.cookie })).status).toBe(204);
    const frame = await socket.next!(
      (f): f is Extract<typeof f, { type: "typing" }> => f.type === "typing" && f.typing === true,
    );
    expect(frame.memberId).toBe(profile.id);
    // The page carries the reply box's script.
    expect(await (await get(`/admin/inbox/${conversationId}`, { cookie: holder.cookie })).text()).toContain("/typing");
    socket.ws!.close();
  });

  it("the inbox stream sends the inbox's version at once; a new wait changes it", async () => {
    const team = await asRole("chat_team");
    const first = async () => {
      const res = await get("/admin/inbox/live", { cookie: team.cookie });
      expect(res.headers.get("Content-Type")).toContain("text/event-stream");
      const reader = res.body!.getReader();
      let text = "";
      while (!text.includes("event: inbox")) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      return /data: (\S+)/.exec(text.slice(text.indexOf("event: inbox")))![1];
    };
    const before = await first();
    await waitingMember();
    expect(await first()).not.toBe(before);
    const moderator = await asRole("moderator");
    expect((await get("/admin/inbox/live", { cookie: moderator.cookie })).status).toBe(403);
  });

  it("without JavaScript the list reloads itself; with it, only the stream updates it (the reload sits in <noscript>)", async () => {
    const team = await asRole("chat_team");
    const html = await (await get("/admin/inbox", { cookie: team.cookie })).text();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toMatch(/<noscript><meta http-equiv="refresh" content="30"\/?><\/noscript>/);
    // No reload outside <noscript>: a browser running the live script must not also reload the page.
    expect(head.replace(/<noscript>.*?<\/noscript>/gs, "")).not.toContain('http-equiv="refresh"');
    expect(html).toContain("/admin/inbox/live");
  });
});
