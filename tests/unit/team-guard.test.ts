/**
 * The persona's own facts in a team reply (decision 210): a stated age other than the profile's, or
 * another known town named as home, is refused; clear first-person statements per language only.
 */
import { describe, expect, it } from "vitest";
import { personaReasons, statedAges, statedTowns } from "../../app/models/team-guard";

describe("stated ages", () => {
  it("finds first-person ages in every language", () => {
    const cases: [string, number][] = [
      ["I'm 25, and you?", 25],
      ["Honestly I am 25 years old", 25],
      ["Ich bin 25 Jahre alt", 25],
      ["ik ben 25 jaar", 25],
      ["J'ai 25 ans", 25],
      ["Tengo 25 años", 25],
      ["Ho 25 anni", 25],
      ["Mam 25 lat", 25],
      ["Jeg er 25 år", 25],
      ["Jag är 25 år", 25],
      ["Olen 25-vuotias", 25],
    ];
    for (const [text, age] of cases) expect(statedAges(text), text).toEqual([age]);
  });

  it("leaves distances, times, amounts and other people alone", () => {
    for (const text of [
      "I'm 20 minutes from the centre",
      "I am 5 km away",
      "Ich bin 30 Minuten gefahren",
      "My sister is 25",
      "ik ben 2 uur onderweg",
      "I'm happy",
    ])
      expect(statedAges(text), text).toEqual([]);
  });
});

describe("stated towns", () => {
  it("takes capitalised names after a first-person statement, in every language", () => {
    expect(statedTowns("I live in Amsterdam, and you?")).toEqual(["Amsterdam"]);
    expect(statedTowns("ik woon in Den Haag")).toEqual(["Den Haag", "Den"]);
    expect(statedTowns("Ich komme aus Köln.")).toEqual(["Köln"]);
    expect(statedTowns("j'habite à Lyon")).toEqual(["Lyon"]);
    expect(statedTowns("Jag bor i Malmö")).toEqual(["Malmö"]);
    expect(statedTowns("I live in a small village")).toEqual([]);
  });
});

describe("persona reasons", () => {
  const profile = { age: 31, city: "Zwolle" };
  it("refuses another age and another known town; the profile's own pass", () => {
    expect(personaReasons("I'm 25 actually", profile, [])).toEqual(["age"]);
    expect(personaReasons("I'm 31 actually", profile, [])).toEqual([]);
    expect(personaReasons("I live in Amsterdam", profile, ["Amsterdam"])).toEqual(["town"]);
    expect(personaReasons("I live in Zwolle", profile, ["Zwolle"])).toEqual([]);
    // Not a town the table knows (a country, a word): not refused.
    expect(personaReasons("I'm from Holland", profile, [])).toEqual([]);
  });
});
