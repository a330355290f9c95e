/**
 * Writes db/seed/region-names.json: region (GeoNames admin1) names in the site's languages, keyed by
 * country and admin1 code: { "DE": { "02": { "de": "Bayern", "fr": "Bavière", ... } } }.
 * Sources: the npm package iso3166-2-db (MIT; Wikipedia names in de, es, fr, it, mapped to GeoNames
 * admin1 codes) and, for countries whose own language it lacks, their official names below.
 * Run once when the data should change: `node scripts/gen-region-names.mjs` (fetches the package
 * with npm pack into a temporary directory; it is ~280 MB unpacked, so it is no dependency).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const COUNTRIES = [
  "AD",
  "AL",
  "AT",
  "BA",
  "BE",
  "BG",
  "CH",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LI",
  "LT",
  "LU",
  "LV",
  "MC",
  "MD",
  "ME",
  "MK",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "RS",
  "SE",
  "SI",
  "SK",
  "SM",
  "UA",
  "XK",
  "US",
];
const PACKAGE_LANGUAGES = ["de", "es", "fr", "it"];

/** Official names in the country's own language where the package has none (Sweden and Norway: GeoNames has them). */
const NATIVE = {
  DK: {
    lang: "da",
    names: {
      17: "Region Hovedstaden",
      18: "Region Midtjylland",
      19: "Region Nordjylland",
      20: "Region Sjælland",
      21: "Region Syddanmark",
    },
  },
  FI: {
    lang: "fi",
    names: {
      "01": "Uusimaa",
      "02": "Varsinais-Suomi",
      "04": "Satakunta",
      "05": "Kanta-Häme",
      "06": "Pirkanmaa",
      "07": "Päijät-Häme",
      "08": "Kymenlaakso",
      "09": "Etelä-Karjala",
      10: "Etelä-Savo",
      11: "Pohjois-Savo",
      12: "Pohjois-Karjala",
      13: "Keski-Suomi",
      14: "Etelä-Pohjanmaa",
      15: "Pohjanmaa",
      16: "Keski-Pohjanmaa",
      17: "Pohjois-Pohjanmaa",
      18: "Kainuu",
      19: "Lappi",
    },
  },
  NL: {
    lang: "nl",
    names: {
      "01": "Drenthe",
      "02": "Friesland",
      "03": "Gelderland",
      "04": "Groningen",
      "05": "Limburg",
      "06": "Noord-Brabant",
      "07": "Noord-Holland",
      "09": "Utrecht",
      10: "Zeeland",
      11: "Zuid-Holland",
      15: "Overijssel",
      16: "Flevoland",
    },
  },
  PL: {
    lang: "pl",
    names: {
      72: "Dolnośląskie",
      73: "Kujawsko-Pomorskie",
      74: "Łódzkie",
      75: "Lubelskie",
      76: "Lubuskie",
      77: "Małopolskie",
      78: "Mazowieckie",
      79: "Opolskie",
      80: "Podkarpackie",
      81: "Podlaskie",
      82: "Pomorskie",
      83: "Śląskie",
      84: "Świętokrzyskie",
      85: "Warmińsko-Mazurskie",
      86: "Wielkopolskie",
      87: "Zachodniopomorskie",
    },
  },
};

function packageDir() {
  const dir = mkdtempSync(join(tmpdir(), "iso3166-2-db-"));
  const file = execFileSync("npm", ["pack", "iso3166-2-db@2.3.11", "--silent"], { cwd: dir, encoding: "utf8" }).trim();
  execFileSync("tar", ["xzf", file], { cwd: dir });
  return join(dir, "package");
}

const pkg = process.argv[2] ?? packageDir();
const read = (country, lang) => {
  const file = join(pkg, "regions", country, `${lang}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
};

const out = {};
for (const country of COUNTRIES) {
  const english = new Map(read(country, "en").map((r) => [r.admin, r.name]));
  for (const lang of PACKAGE_LANGUAGES) {
    for (const r of read(country, lang)) {
      // Untranslated entries repeat the English name ("Municipality of …"): the seed's own name serves.
      // One with letters beyond ASCII is kept: the seed's GeoNames name may lack them ("Baden-Wurttemberg").
      if (!r.admin || !r.name || (r.name === english.get(r.admin) && !/[^\x00-\x7f]/.test(r.name))) continue;
      ((out[country] ??= {})[r.admin] ??= {})[lang] = r.name;
    }
  }
}
for (const [country, { lang, names }] of Object.entries(NATIVE)) {
  for (const [code, name] of Object.entries(names))
    ((out[country] ??= {})[String(code).padStart(2, "0")] ??= {})[lang] = name;
}
writeFileSync(new URL("../db/seed/region-names.json", import.meta.url), `${JSON.stringify(out)}\n`);
console.log(`region names: ${Object.values(out).reduce((n, c) => n + Object.keys(c).length, 0)} regions`);
