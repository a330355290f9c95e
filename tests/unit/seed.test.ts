import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../app/lib/constants";
import { ageOn } from "../../app/lib/dates";
import { ABOUT_ME, composeAboutMe, fillTemplate } from "../../db/seed/about-me";
import { buildGeo, loadRegionNames, namesOf, pickCity, type City, type SourceCity } from "../../db/seed/geo";
import { regionName, regionsIn } from "../../app/models/geo.server";
import { insertStatements } from "../../db/seed/insert";
import {
  COUNTRY_PLAN,
  brandFor,
  dateOfBirthForAge,
  generateMember,
  randomAge,
  type NameSource,
} from "../../db/seed/people";
import {
  BODY_TYPES,
  EYE_COLOURS,
  HAIR_COLOURS,
  RELATIONSHIP_STATUSES,
  SIGNUP_REASONS,
  TATTOOS,
} from "../../db/seed/profile-options";
import { createRng } from "../../db/seed/random";

const city = (name: string, country: string, regionCode: string, population: number): City => ({
  name,
  country,
  regionCode,
  lat: 50,
  lon: 5,
  population,
});

describe("seed: ages", () => {
  it("gives a date of birth of exactly the requested age, also around leap days and new year", () => {
    // The youngest (random 0) and the oldest (random just below 1) possible birthday, and random ones.
    for (const rng of [() => 0, () => 0.999999, createRng(1)]) {
      for (const now of ["2026-11-21", "2028-02-29", "2027-01-01", "2026-12-31"].map(
        (d) => new Date(`${d}T12:00:00Z`),
      )) {
        for (let age = 18; age <= 75; age++) expect(ageOn(dateOfBirthForAge(rng, age, now), now)).toBe(age);
      }
    }
  });

  it("spreads ages over 18 to 75 with plenty of mature women", () => {
    const rng = createRng(2);
    const ages = Array.from({ length: 2000 }, () => randomAge(rng, "female"));
    expect(Math.min(...ages)).toBe(18);
    expect(Math.max(...ages)).toBe(75);
    expect(ages.filter((a) => a >= 45).length / ages.length).toBeGreaterThan(0.3);
    expect(ages.filter((a) => a >= 60).length).toBeGreaterThan(100);
  });
});

describe("seed: about-me texts", () => {
  it("has a bank for every site language", () => {
    for (const lng of LANGUAGES) expect(ABOUT_ME[lng].middles.length).toBeGreaterThanOrEqual(6);
  });

  it("picks the member's gendered form and fills name and city", () => {
    const text = "{Nouvelle|Nouveau} ici, moi c'est %name% de %city%.";
    expect(fillTemplate(text, "female", { name: "Léa", city: "Lyon" })).toBe("Nouvelle ici, moi c'est Léa de Lyon.");
    expect(fillTemplate(text, "male", { name: "Hugo", city: "Lyon" })).toBe("Nouveau ici, moi c'est Hugo de Lyon.");
  });

  it("composes texts from the member's own language only, with nothing left unfilled", () => {
    const rng = createRng(3);
    for (const lng of LANGUAGES) {
      const bank = ABOUT_ME[lng];
      const own = [...bank.openers, ...bank.middles, bank.mature, ...bank.closers];
      for (let i = 0; i < 30; i++) {
        const gender = i % 2 ? "male" : "female";
        const text = composeAboutMe(rng, lng, { gender, name: "Sam", city: "Tilburg", age: 20 + i });
        expect(text).not.toMatch(/[{}|%]/);
        const filled = own.map((s) => fillTemplate(s, gender, { name: "Sam", city: "Tilburg" }));
        expect(filled.some((s) => text.startsWith(s))).toBe(true);
      }
    }
  });
});

describe("seed: regions and cities", () => {
  const source = (
    name: string,
    country: string,
    adminCode: string,
    population: number,
    featureCode = "PPL",
  ): SourceCity => ({ name, country, adminCode, population, featureCode, loc: { coordinates: [10, 60] } });
  const admin1 = [
    { code: "NO.12", name: "Oslo" },
    { code: "NO.46", name: "Vestland" },
    { code: "NL.07", name: "North Holland" },
  ];

  it("keeps towns of at least 15,000, skips districts, and takes renumbered regions from the newer data", () => {
    const { regions, cities } = buildGeo(
      [
        source("Oslo", "NO", "12", 580_000),
        source("Bergen", "NO", "07", 213_585), // old county code, renumbered since
        source("Sandvika", "NO", "99", 20_000), // no match anywhere: dropped
        source("Grünerløkka", "NO", "12", 50_000, "PPLX"),
        source("Tiny", "NO", "12", 2_000),
        source("Madrid", "ES", "29", 3_000_000), // country not asked for
      ],
      [{ name: "Bergen", country: "NO", lat: "60.05", lng: "10.1", admin1: "46" }],
      admin1,
      ["NO", "NL"],
    );
    expect(regions).toContainEqual({ country: "NL", code: "07", name: "North Holland" });
    expect(cities.map((c) => [c.name, c.regionCode])).toEqual([
      ["Oslo", "12"],
      ["Bergen", "46"],
    ]);
  });

  it("places more members in big cities, but only in the given cities", () => {
    const rng = createRng(4);
    const cities = [city("Big", "NL", "07", 1_000_000), city("Small", "NL", "07", 10_000)];
    const picks = Array.from({ length: 1000 }, () => pickCity(rng, cities).name);
    const big = picks.filter((n) => n === "Big").length;
    expect(big).toBeGreaterThan(800);
    expect(big).toBeLessThan(1000);
  });
});

describe("seed: members", () => {
  const names: NameSource = { person: { firstName: () => "Élodie", lastName: () => "Dupont-Van Damme" } };
  const belgium = [city("Antwerpen", "BE", "VLG", 500_000), city("Liège", "BE", "WAL", 190_000)];

  it("uses only the profile editor's option codes and a city of the member's country", () => {
    const rng = createRng(5);
    const now = new Date("2026-11-21T12:00:00Z");
    for (const plan of COUNTRY_PLAN.filter((p) => p.country === "BE")) {
      for (let i = 0; i < 50; i++) {
        const m = generateMember(rng, i, plan, names, belgium, now);
        const p = m.profile;
        expect(HAIR_COLOURS).toContain(p.hairColour);
        expect(EYE_COLOURS).toContain(p.eyeColour);
        expect(BODY_TYPES).toContain(p.bodyType);
        expect(RELATIONSHIP_STATUSES).toContain(p.relationshipStatus);
        expect(TATTOOS).toContain(p.tattoos);
        expect(SIGNUP_REASONS).toContain(p.signupReason);
        expect(ageOn(p.dateOfBirth, now)).toBeGreaterThanOrEqual(18);
        expect(ageOn(p.dateOfBirth, now)).toBeLessThanOrEqual(75);
        // French speakers live in Wallonia, Dutch speakers in Flanders.
        expect(p.city).toBe(plan.language === "fr" ? "Liège" : "Antwerpen");
        expect(p.region).toBe(plan.language === "fr" ? "WAL" : "VLG");
        expect(Math.abs(p.lat - 50)).toBeLessThan(0.05);
        expect(m.email).toMatch(/^elodie\.dupontvandamme\d+@example\.com$/);
        expect(m.lastSeenAt).toBeGreaterThanOrEqual(m.createdAt);
        if (p.gender === "male") expect(p.fictional).toBe(false);
      }
    }
  });
});

describe("seed: brands", () => {
  it("puts mature German-speaking women on Herzklang and Dutch-speaking women on Flirtlokaal, never elsewhere", () => {
    const rng = createRng(6);
    const brandsOf = (country: string, gender: "male" | "female", age: number) =>
      new Set(Array.from({ length: 200 }, () => brandFor(rng, country, gender, "hetero", age)));
    expect(brandsOf("DE", "female", 50)).toEqual(new Set([1, 2]));
    expect(brandsOf("NL", "female", 30)).toEqual(new Set([1, 3]));
    expect(brandsOf("FR", "female", 50)).toEqual(new Set([1]));
    expect(new Set(Array.from({ length: 200 }, () => brandFor(rng, "NL", "female", "lesbian", 30)))).toEqual(
      new Set([1]),
    );
  });
});

describe("seed: bulk insert", () => {
  it("sends rows as one JSON parameter per chunk, booleans as 0/1", () => {
    const sent: { sql: string; params: unknown[] }[] = [];
    const DB = { prepare: (sql: string) => ({ bind: (...params: unknown[]) => sent.push({ sql, params }) }) };
    const rows = Array.from({ length: 5 }, (_, i) => [`id${i}`, i % 2 === 0, null]);
    insertStatements(DB as unknown as D1Database, "photos", ["id", "is_private", "note"], rows, 2);
    expect(sent).toHaveLength(3);
    expect(sent[0]!.sql).toBe(
      "INSERT INTO photos (id, is_private, note) SELECT value->>0, value->>1, value->>2 FROM json_each(?1)",
    );
    expect(JSON.parse(sent[0]!.params[0] as string)).toEqual([
      ["id0", 1, null],
      ["id1", 0, null],
    ]);
  });
});

import { isTransient, shouldSeed, withRetries } from "../../db/seed/complete";

describe("seed: all or nothing (decision 086)", () => {
  it("npm start skips only a seed whose completion mark exists", () => {
    expect(shouldSeed({ ifEmpty: true, marked: true })).toBe(false);
    expect(shouldSeed({ ifEmpty: true, marked: false })).toBe(true); // half seeded: start over
    expect(shouldSeed({ ifEmpty: false, marked: true })).toBe(true); // npm run db:seed always reseeds
  });

  it("retries transient socket errors (also as a cause), not bugs", async () => {
    const socket = Object.assign(new TypeError("fetch failed"), {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    expect(isTransient(socket)).toBe(true);
    expect(isTransient(new Error("UNIQUE constraint failed: users.email"))).toBe(false);
    let calls = 0;
    await expect(withRetries(3, async () => (++calls < 3 ? Promise.reject(socket) : "done"))).resolves.toBe("done");
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      withRetries(3, async () => {
        calls++;
        throw new Error("bug");
      }),
    ).rejects.toThrow("bug");
    expect(calls).toBe(1);
  });
});

describe("region names in the site's languages (decision 133)", () => {
  it("ships names from the data where it has them, own-language names included", () => {
    const table = loadRegionNames();
    expect(table.DE!["02"]).toMatchObject({ de: "Bayern", fr: "Bavière", it: "Baviera", es: "Baviera" });
    expect(table.PL!["78"]!.pl).toBe("Mazowieckie");
    expect(table.NL!["07"]!.nl).toBe("Noord-Holland");
    expect(table.DK!["17"]!.da).toBe("Region Hovedstaden");
    expect(table.FI!["02"]!.fi).toBe("Varsinais-Suomi");
  });
  it("stores only the names that differ from the region's own", () => {
    const table = { DE: { "10": { de: "Schleswig-Holstein", fr: "Schleswig-Holstein-Land" } } };
    expect(JSON.parse(namesOf(table, { country: "DE", code: "10", name: "Schleswig-Holstein" }))).toEqual({
      fr: "Schleswig-Holstein-Land",
    });
    expect(namesOf(table, { country: "XX", code: "1", name: "Nowhere" })).toBe("{}");
  });
  it("picks the page's language, else the region's own name, also for a broken value", () => {
    expect(regionName('{"de":"Bayern"}', "Bavaria", "de")).toBe("Bayern");
    expect(regionName('{"de":"Bayern"}', "Bavaria", "sv")).toBe("Bavaria");
    expect(regionName(null, "Bavaria", "de")).toBe("Bavaria");
    expect(regionName("{not json", "Bavaria", "de")).toBe("Bavaria");
    expect(
      regionsIn(
        [
          { code: "2", name: "Bavaria", names: '{"de":"Bayern"}' },
          { code: "1", name: "Berlin", names: "{}" },
        ],
        "de",
      ).map((r) => r.name),
    ).toEqual(["Bayern", "Berlin"]);
  });
});
