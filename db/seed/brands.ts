/** The four demo brands (one selling in SEK) and their companies (docs/product/data.md §3 "Settings" and "Company info"). */
const costs = (eur: number) => ({ costs: eur, currency: "EUR" });
const EU = ["NL", "BE", "DE", "AT", "CH", "FR", "IT", "ES", "PL", "DK", "FI", "NO", "SE", "GB", "IE", "US", "CA", "AU"];
const messageCosts = Object.fromEntries(EU.map((c) => [c, costs(["CH", "NO", "DK", "SE"].includes(c) ? 2 : 1)]));

const shared = {
  cdnPrefix: "",
  signups: "all" as const,
  loggedOutSearch: "other" as const,
  loggedOutSearchTrafficsource: "other" as const,
  pushPublicKey: "",
  enableSiteEntryPopup: true,
  siteEntryCountries: ["NL", "DE", "BE", "AT", "CH", "FR", "IT", "ES", "PL", "DK", "FI", "NO", "SE", "GB", "IE"],
  fictionalIcon: "🎭",
  countries: EU,
  minimumMessageCosts: messageCosts,
  visibleProfileFields: [
    "gender",
    "sexuality",
    "age",
    "city",
    "region",
    "hair_colour",
    "eye_colour",
    "body_type",
    "relationship_status",
    "tattoos",
    "signup_reason",
    "about_me",
    "interests",
  ],
  visibleProfileNotes: false,
  messageCredits: 1,
  // Enough for a few messages: a new free member can start the 2 conversations they may, then meets the buy-credits prompt.
  signupCredits: 5,
  photoCredits: 5,
  giftCredits: 10,
  messageLength: 1000,
  searchFields: ["gender", "country", "countryregion", "min_age", "max_age"],
  memberResell: false,
  minAge: 18,
  chatHistoryDays: 90,
};

export const companies = [
  {
    id: 1,
    name: "Amora Media B.V.",
    address: "Keizersgracht 123",
    kvk: "87654321",
    city: "1015 CJ Amsterdam",
    country: "NL",
    tradenames: ["Amora", "Flirtlokaal"],
    vatNumbers: ["NL864512378B01"],
    supportPhone: "+31 20-123 45 67",
    deleteDiscount: 50,
    added: "2023-06-01T00:00:00Z",
    // Its own Mollie organisation: secret MOLLIE_API_KEY_AMORA (decision 206).
    mollieAccount: "AMORA",
  },
  {
    id: 2,
    name: "Herzklang GmbH",
    address: "Friedrichstraße 44",
    kvk: "HRB 245781 B",
    city: "10117 Berlin",
    country: "DE",
    tradenames: ["Herzklang"],
    vatNumbers: ["DE318764512"],
    supportPhone: "+49 30 - 555 012 34",
    deleteDiscount: 40,
    added: "2024-02-15T00:00:00Z",
    mollieAccount: "HERZKLANG",
    // The Impressum of a German company (decision 213).
    registerCourt: "Amtsgericht Charlottenburg",
    managingDirectors: "Katrin Vogel, Jonas Brandt",
    youthOfficerName: "Dr. Miriam Albers",
    youthOfficerEmail: "jugendschutz@herzklang.example",
    youthOfficerPhone: "+49 30 - 555 012 99",
    disputeResolution: "unwilling" as const,
    disputeBoard: "",
  },
];

export const brands = [
  {
    ...shared,
    id: 1,
    hostname: "localhost",
    isDefault: true,
    name: "Amora",
    domain: "localhost",
    domainLanguage: "en_GB",
    niche: 1,
    indexTitle: "Amora – chat and flirt",
    description: "Chat and flirt online on Amora, an entertainment service for adults.",
    supportPhone: "+31 20-123 45 67",
    supportEmail: "support@amora.example",
    companyId: 1,
    mailName: "Amora",
    refundDays: 14,
    // The demo of a brand whose own direct debit form Mollie approved; the other brands set direct debit up
    // with a first payment by the member's bank.
    sepaIbanForm: true,
    // Brands 1 to 3 have team-run profiles, so their copy is the entertainment variant (decision 212).
    runsTeamProfiles: true,
    fictionalWarning: "Some profiles are run by our team for entertainment.",
    fictionalSingular: "team-run profile",
    fictionalPlural: "team-run profiles",
  },
  {
    ...shared,
    id: 2,
    hostname: "de.localhost",
    name: "Herzklang",
    domain: "de.localhost",
    domainLanguage: "de_DE",
    niche: 6,
    indexTitle: "Herzklang – Chat und Flirt mit reifen Frauen",
    description: "Chatten und flirten mit selbstbewussten Frauen: Herzklang ist Unterhaltung für Erwachsene.",
    supportPhone: "+49 30 - 555 012 34",
    supportEmail: "hilfe@herzklang.example",
    companyId: 2,
    mailName: "Herzklang",
    refundDays: 14,
    messageCredits: 2,
    signupCredits: 5,
    runsTeamProfiles: true,
    fictionalWarning: "Einige Profile werden von unserem Team betrieben.",
    fictionalSingular: "vom Team betriebenes Profil",
    fictionalPlural: "vom Team betriebene Profile",
    // The demo of the cams promo block (decision 160): on here, off on the other brands.
    camsPromoEnabled: true,
    camsPromo: {
      url: "https://cams.example.com/live",
      params: { aff: "herzklang", campaign: "members", utm_source: "herzklang" },
      placements: ["search", "chats"],
      excludedNiches: ["gay"],
      excludedCountries: ["US"],
    },
    // The demo of age assurance (decision 185): a proof of 18+ before the members area for these countries.
    ageCheck: "before_members_area" as const,
    ageCheckCountries: ["DE", "FR", "IT", "GB"],
    ageCheckDays: 365,
  },
  {
    ...shared,
    id: 3,
    hostname: "nl.localhost",
    name: "Flirtlokaal",
    domain: "nl.localhost",
    domainLanguage: "nl_NL",
    niche: 2,
    indexTitle: "Flirtlokaal – chatten en flirten met vrouwen",
    description: "Chat en flirt online met vrouwen op Flirtlokaal, entertainment voor volwassenen.",
    supportPhone: "+31 85-303 22 11",
    supportEmail: "klantenservice@flirtlokaal.example",
    companyId: 1,
    mailName: "Flirtlokaal",
    refundDays: 30,
    signups: "with_trafficsource" as const,
    runsTeamProfiles: true,
    fictionalWarning: "Sommige profielen worden door ons team beheerd.",
    fictionalSingular: "profiel beheerd door ons team",
    fictionalPlural: "profielen beheerd door ons team",
  },
  {
    // Sells in Swedish kronor: members paying from Sweden get Swish first (package_prices SEK).
    ...shared,
    id: 4,
    hostname: "se.localhost",
    name: "Hjärtslag",
    domain: "se.localhost",
    domainLanguage: "sv_SE",
    niche: 1,
    indexTitle: "Hjärtslag – flörta, chatta och dejta",
    description: "Träffa singlar nära dig på Hjärtslag.",
    supportPhone: "+46 8-123 456 78",
    supportEmail: "kundtjanst@hjartslag.example",
    companyId: 1,
    mailName: "Hjärtslag",
    refundDays: 14,
    currency: "SEK",
    // No team-run profiles here: the dating copy stays (decision 212).
    runsTeamProfiles: false,
    fictionalWarning: "Vissa profiler drivs av vårt team för underhållning.",
    fictionalSingular: "teamdriven profil",
    fictionalPlural: "teamdrivna profiler",
  },
];

/** Credit packages p0 to p3 and the try-out (price_cents/currency: the original EUR price; prices sold: packagePrices). */
export const packages = [
  { id: "p0", tier: "p0" as const, credits: 25, priceCents: 995, currency: "EUR" },
  { id: "p1", tier: "p1" as const, credits: 60, priceCents: 1995, currency: "EUR" },
  { id: "p2", tier: "p2" as const, credits: 150, priceCents: 3995, currency: "EUR" },
  { id: "p3", tier: "p3" as const, credits: 400, priceCents: 7995, currency: "EUR" },
  // The try-out package of the delete-account offer: small, once per member, not listed with the tiers.
  { id: "tryout", tier: "p0" as const, credits: 10, priceCents: 295, currency: "EUR", oneTime: true },
];

/**
 * What each package costs per currency, in cents: local prices rounded the way shops there price
 * (…9 kr, …,99 zł), near the EUR price, not a daily conversion.
 */
const LOCAL_PRICES: Record<string, [number, number, number, number, number]> = {
  //     p0     p1     p2     p3  tryout
  EUR: [995, 1995, 3995, 7995, 295],
  SEK: [10900, 21900, 44900, 89900, 3200],
  NOK: [11900, 22900, 46900, 92900, 3400],
  DKK: [7500, 14900, 29900, 59900, 2200],
  PLN: [4299, 8599, 16999, 33999, 1299],
  CHF: [990, 1890, 3790, 7490, 290],
};
export const packagePrices = Object.entries(LOCAL_PRICES).flatMap(([currency, prices]) =>
  packages.map((p, i) => ({ packageId: p.id, currency, priceCents: prices[i]! })),
);
