/**
 * The console's brand form as data (decision 181): each setting the site reads is one
 * entry (column, label, hint, input kind, how the column shows in the form, and the zod rule that turns
 * the posted text back into the column's value). The page renders the list and the model validates
 * with it, so a new brand setting is one entry here. Not a .server module: the form component reads it.
 * Built on first use (`lazy`, decision 234): some 200 zod rules the Worker need not build to start.
 */
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { codeList } from "~/lib/text";
import { amountCentsSchema } from "~/lib/amount";
import { LANGUAGES, NICHES } from "~/lib/constants";
import type { brands, companies } from "../../../db/schema";
import { LANGUAGE_NAMES } from "~/lib/i18n";
import { MOLLIE_ACCOUNT_PATTERN, MOLLIE_PROFILE_PATTERN } from "~/lib/payments/account";

type Brand = typeof brands.$inferSelect;
type Company = typeof companies.$inferSelect;

export type FieldKind = "text" | "long" | "email" | "int" | "money" | "select" | "check" | "list" | "lines";

export type FormField<Row> = {
  /** The column (and the form field's name). */
  name: keyof Row & string;
  label: string;
  hint?: string;
  kind: FieldKind;
  /** value, label */
  options?: readonly (readonly [string, string])[];
  /** The column's value as the form shows it. */
  toForm: (row: Row) => string;
  /** Posted text → the column's value; its messages show next to the field. */
  schema: z.ZodTypeAny;
  /** A new brand starts with this field empty instead of the default brand's value. */
  blankWhenNew?: boolean;
  /** Takes the fieldset's whole width (long lists). */
  wide?: boolean;
};
export type BrandField = FormField<Brand>;
export type CompanyField = FormField<Company>;
export type Fieldset<Row> = { legend: string; hint?: string; fields: FormField<Row>[] };

// ---------------------------------------------------------------------------------------------
// Rules shared by the fields (the limits the site holds elsewhere)

/** ISO 3166-1 alpha-2, every assigned code. */
export const ISO_COUNTRIES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO " +
    "JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR " +
    "MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO " +
    "RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV " +
    "TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW"
  ).split(" "),
);

/** The site's languages as the brand's locale (`domain_language`, e.g. de_DE; its first two letters pick the language). */
export const BRAND_LOCALES: Record<(typeof LANGUAGES)[number], string> = {
  en: "en_GB",
  nl: "nl_NL",
  de: "de_DE",
  it: "it_IT",
  fr: "fr_FR",
  es: "es_ES",
  pl: "pl_PL",
  da: "da_DK",
  fi: "fi_FI",
  nb: "nb_NO",
  sv: "sv_SE",
};

/** A DNS host name as a browser sends it (lower case, labels of letters, digits and inner dashes). */
export const HOSTNAME_RE =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const hostname = lazy(() =>
  z
    .string()
    .trim()
    .toLowerCase()
    .transform((v) => v.replace(/\.$/, ""))
    .pipe(z.string().regex(HOSTNAME_RE, "A host name such as www.example.com (letters, digits, dashes and dots).")),
);

// Text shown on pages and in mail headers: no control characters (a line break in a mail header is an injection).
const CONTROL = /[\u0000-\u001f\u007f]/;
/** An optional code: empty is null; else it must match (upper-cased first when `upper`). */
const optional = (pattern: RegExp, message: string, upper = false) =>
  z
    .string()
    // An empty field is not posted at all.
    .default("")
    .transform((v) => (upper ? v.trim().toUpperCase() : v.trim()))
    .refine((v) => v === "" || pattern.test(v), message)
    .transform((v) => (v === "" ? null : v));

const line = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, min === 1 ? "Required." : `At least ${min} characters.`)
    .max(max, `At most ${max} characters.`)
    .refine((v) => !CONTROL.test(v), "No line breaks or control characters.");

/** Text that may stay empty (conform posts an empty field as no value at all): a line of at most `max` characters. */
const optionalLine = (max: number) =>
  z
    .string()
    .optional()
    .transform((v) => (v ?? "").trim())
    .refine((v) => v.length <= max, `At most ${max} characters.`)
    .refine((v) => !CONTROL.test(v), "No line breaks or control characters.");

const int = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, `A whole number from ${min} to ${max}.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `A whole number from ${min} to ${max}.`);

const oneOf = <T extends string>(values: readonly [T, ...T[]], message = "Choose one of the options.") =>
  z.enum(values, { errorMap: () => ({ message }) });

/** A ticked checkbox posts "on"; an unticked one posts nothing. */
const check = lazy(() => z.preprocess((v) => v === "on" || v === "1" || v === "true", z.boolean()));

const countryList = (max: number) =>
  z
    .string()
    .max(2000, "Too long.")
    // An empty field arrives as no value at all (conform), and means no country.
    .optional()
    .transform((v) => codeList(v ?? ""))
    .refine((l) => l.every((c) => ISO_COUNTRIES.has(c)), "Countries as ISO two-letter codes, e.g. DE, AT, CH.")
    .refine((l) => l.length <= max, `At most ${max} countries.`)
    .transform((l) => [...new Set(l)]);

/** Amount in the brand's currency as typed ("300" or "300.00") → minor units. */
const amount = (maxCents: number) =>
  amountCentsSchema.refine((c) => c <= maxCents, `At most ${(maxCents / 100).toFixed(2)}.`);

/** A support line as printed on pages and receipts; empty = none. */
const phone = lazy(() =>
  line(0, 30).refine(
    (v) => v === "" || /^\+?[0-9][0-9 ()-]{4,28}$/.test(v),
    "A phone number such as +31 20-123 45 67.",
  ),
);

export const MAX_CREDITS = 10_000;
const credits = lazy(() => int(0, MAX_CREDITS));

type MessageCosts = Brand["minimumMessageCosts"];
/** One line per country: "DE 2" (credits a message costs there) or "DE 2 EUR" (the spec's currency field). */
const messageCosts = lazy(() =>
  z
    .string()
    .max(5000, "Too long.")
    .optional()
    .transform((v, ctx) => {
      const out: MessageCosts = {};
      for (const raw of (v ?? "").split(/\r?\n/)) {
        const l = raw.trim().toUpperCase();
        if (!l) continue;
        const m = /^([A-Z]{2})[\s:=]+(\d{1,5})(?:\s+([A-Z]{3}))?$/.exec(l);
        if (!m || !ISO_COUNTRIES.has(m[1]!) || Number(m[2]) > MAX_CREDITS) {
          ctx.addIssue({
            code: "custom",
            message: `"${raw.trim().slice(0, 30)}": write a country and credits, e.g. DE 2.`,
          });
          return z.NEVER;
        }
        out[m[1]!] = { costs: Number(m[2]), currency: m[3] ?? "EUR" };
      }
      if (Object.keys(out).length > 300) ctx.addIssue({ code: "custom", message: "At most 300 countries." });
      return out;
    }),
);

const list = (l: readonly string[]) => l.join(", ");
const money = (cents: number) => (cents / 100).toFixed(2);

// ---------------------------------------------------------------------------------------------
// The brand form

const NICHE_OPTIONS = Object.entries(NICHES).map(([id, n]) => [id, n] as const);
const nicheIds = Object.keys(NICHES) as [string, ...string[]];
const localeValues = Object.values(BRAND_LOCALES) as [string, ...string[]];

export const brandFieldsets = lazy((): Fieldset<Brand>[] => [
  {
    legend: "Site",
    fields: [
      {
        name: "name",
        label: "Brand name",
        kind: "text",
        toForm: (b) => b.name,
        schema: line(1, 60),
        blankWhenNew: true,
      },
      {
        name: "hostname",
        label: "Host name",
        hint: "The host the Worker answers for this brand (www. is optional). It answers once the domain is routed to the Worker.",
        kind: "text",
        toForm: (b) => b.hostname,
        schema: hostname(),
        blankWhenNew: true,
      },
      {
        name: "domain",
        label: "Domain in mails",
        hint: "Every link in a mail starts with https:// and this domain.",
        kind: "text",
        toForm: (b) => b.domain,
        schema: hostname(),
        blankWhenNew: true,
      },
      {
        name: "domainLanguage",
        label: "Default language",
        hint: "A visitor without a language of their own sees this one.",
        kind: "select",
        options: Object.entries(BRAND_LOCALES).map(([l, loc]) => [loc, `${LANGUAGE_NAMES[l]} (${loc})`] as const),
        toForm: (b) => b.domainLanguage,
        schema: oneOf(localeValues, "Choose one of the site's languages."),
      },
      {
        name: "niche",
        label: "Niche",
        kind: "select",
        options: NICHE_OPTIONS,
        toForm: (b) => String(b.niche),
        schema: oneOf(nicheIds, "Choose a niche.").transform(Number),
      },
      {
        name: "currency",
        label: "Currency",
        hint: "Packages are sold in it: it must have package prices.",
        kind: "text",
        toForm: (b) => b.currency,
        schema: z
          .string()
          .trim()
          .toUpperCase()
          .regex(/^[A-Z]{3}$/, "An ISO currency code such as EUR."),
      },
      {
        name: "indexTitle",
        label: "Home page title",
        kind: "text",
        toForm: (b) => b.indexTitle,
        schema: line(1, 120),
        blankWhenNew: true,
      },
      {
        name: "description",
        label: "Description (search engines)",
        kind: "long",
        toForm: (b) => b.description,
        schema: z.string().trim().min(1, "Required.").max(300, "At most 300 characters."),
        blankWhenNew: true,
      },
      {
        name: "countries",
        label: "Countries served",
        hint: "ISO codes, comma separated.",
        kind: "list",
        wide: true,
        toForm: (b) => list(b.countries),
        schema: countryList(250).refine((l) => l.length > 0, "At least one country."),
      },
    ],
  },
  {
    legend: "Sign-ups and visitors",
    fields: [
      {
        name: "signups",
        label: "Who may sign up",
        kind: "select",
        options: [
          ["all", "Everyone"],
          ["with_trafficsource", "Only visitors from a traffic source (network or ref)"],
          ["other", "Nobody (invite only)"],
        ],
        toForm: (b) => b.signups,
        schema: oneOf(["all", "with_trafficsource", "other"]),
      },
      {
        name: "loggedOutSearch",
        label: "Search for logged-out visitors",
        kind: "select",
        options: [
          ["other", "Shown"],
          ["none", "Hidden"],
        ],
        toForm: (b) => b.loggedOutSearch,
        schema: oneOf(["none", "other"]),
      },
      {
        name: "loggedOutSearchTrafficsource",
        label: "Search for logged-out visitors from a traffic source",
        kind: "select",
        options: [
          ["other", "Shown"],
          ["none", "Hidden"],
        ],
        toForm: (b) => b.loggedOutSearchTrafficsource,
        schema: oneOf(["none", "other"]),
      },
      { name: "minAge", label: "Minimum age", kind: "int", toForm: (b) => String(b.minAge), schema: int(18, 99) },
      {
        name: "signupCredits",
        label: "Sign-up credits",
        hint: "Credits a new member gets at sign-up.",
        kind: "int",
        toForm: (b) => String(b.signupCredits),
        schema: credits(),
      },
      {
        name: "enableSiteEntryPopup",
        label: "Site-entry popup (age confirmation)",
        kind: "check",
        toForm: (b) => (b.enableSiteEntryPopup ? "on" : ""),
        schema: check(),
      },
      {
        name: "siteEntryCountries",
        label: "Countries that see the site-entry popup",
        hint: "ISO codes, comma separated; empty = nowhere.",
        kind: "list",
        wide: true,
        toForm: (b) => list(b.siteEntryCountries),
        schema: countryList(250),
      },
    ],
  },
  {
    legend: "Age assurance",
    hint: "Proof of age with the EU age verification app (decision 185), for visitors from the listed countries.",
    fields: [
      {
        name: "ageCheck",
        label: "Ask for proof of age",
        kind: "select",
        options: [
          ["off", "Off"],
          ["before_members_area", "Before the members area"],
          ["before_photos", "Before unblurred photos and the chat"],
        ],
        toForm: (b) => b.ageCheck,
        schema: oneOf(["off", "before_members_area", "before_photos"]),
      },
      {
        name: "ageCheckDays",
        label: "A proof is honoured for (days)",
        kind: "int",
        toForm: (b) => String(b.ageCheckDays),
        schema: int(1, 3650),
      },
      {
        name: "ageCheckCountries",
        label: "Countries that must prove their age",
        hint: "ISO codes, comma separated; empty = nowhere.",
        kind: "list",
        wide: true,
        toForm: (b) => list(b.ageCheckCountries),
        schema: countryList(250),
      },
    ],
  },
  {
    legend: "Prices in credits",
    hint: "Whole credits, 0 to 10,000.",
    fields: [
      {
        name: "messageCredits",
        label: "Message",
        hint: "Unless the sender's country has its own price below.",
        kind: "int",
        toForm: (b) => String(b.messageCredits),
        schema: credits(),
      },
      { name: "giftCredits", label: "Gift", kind: "int", toForm: (b) => String(b.giftCredits), schema: credits() },
      { name: "photoCredits", label: "Photo", kind: "int", toForm: (b) => String(b.photoCredits), schema: credits() },
      {
        name: "minimumMessageCosts",
        label: "Message price per country",
        hint: "One line per country: DE 2 (credits a message costs there).",
        kind: "lines",
        toForm: (b) =>
          Object.entries(b.minimumMessageCosts)
            .map(([c, v]) => `${c} ${v.costs}${v.currency && v.currency !== "EUR" ? ` ${v.currency}` : ""}`)
            .join("\n"),
        schema: messageCosts(),
      },
      {
        name: "messageLength",
        label: "Longest message (characters)",
        kind: "int",
        toForm: (b) => String(b.messageLength),
        schema: int(1, 10_000),
      },
    ],
  },
  {
    legend: "Money",
    fields: [
      {
        name: "refundDays",
        label: "Refund days",
        hint: "Days after a purchase a member may ask for a refund of unused credits; 0 = no refunds.",
        kind: "int",
        toForm: (b) => String(b.refundDays),
        schema: int(0, 365),
      },
      {
        name: "welcomeDiscountS",
        label: "Welcome discount window (hours)",
        hint: "How long after sign-up the first-purchase discount stays valid; 0 = none.",
        kind: "int",
        toForm: (b) => String(Math.round(b.welcomeDiscountS / 3600)),
        schema: int(0, 24 * 365).transform((h) => h * 3600),
      },
      {
        name: "directdebitMonthlyLimitCents",
        label: "Direct debit limit per month",
        hint: "In the brand's currency, per member and calendar month.",
        kind: "money",
        toForm: (b) => money(b.directdebitMonthlyLimitCents),
        schema: amount(10_000_00),
      },
      {
        name: "mollieProfileId",
        label: "Mollie profile id",
        hint: "The brand's website profile in its company's Mollie account (pfl_…), where the company has several websites. Empty: the key's own profile.",
        kind: "text",
        toForm: (b) => b.mollieProfileId ?? "",
        schema: optional(MOLLIE_PROFILE_PATTERN, "A Mollie profile id such as pfl_v9hTwCvYqw."),
        blankWhenNew: true,
      },
      {
        name: "sepaIbanForm",
        label: "Direct debit form approved by Mollie",
        hint: "Only when Mollie approved it: members then type their IBAN and confirm by SMS. Off: direct debit starts with a payment by the member's bank (iDEAL, Bancontact, EPS), which gives a verified mandate.",
        kind: "check",
        toForm: (b) => (b.sepaIbanForm ? "on" : ""),
        schema: check(),
      },
    ],
  },
  {
    legend: "Members area",
    fields: [
      {
        name: "runsTeamProfiles",
        label: "Runs team profiles",
        hint: "On: the site presents itself as a chat and flirt entertainment service and promises no dates or meetings (decision 212).",
        kind: "check",
        toForm: (b) => (b.runsTeamProfiles ? "on" : ""),
        schema: check(),
      },
      {
        name: "photoReview",
        label: "Photo review",
        kind: "select",
        options: [
          ["before", "Before others see a new photo"],
          ["after", "After (shown at once, still reviewed)"],
        ],
        toForm: (b) => b.photoReview,
        schema: oneOf(["before", "after"]),
      },
      {
        name: "chatHistoryDays",
        label: "Chat history (days)",
        hint: "Older messages are hidden from both members.",
        kind: "int",
        toForm: (b) => String(b.chatHistoryDays),
        schema: int(1, 3650),
      },
      {
        name: "teamReplyHours",
        label: "Team-run profiles: reply window (hours)",
        hint: "A paid message to a team-run profile unanswered this long gets its credits back.",
        kind: "int",
        toForm: (b) => String(b.teamReplyHours),
        schema: int(1, 168),
      },
      {
        name: "teamPhrases",
        label: "Team-run profiles: phrases a reply may not contain",
        hint: "One per line, any language, besides the built-in lists (meeting, contact, links, money).",
        kind: "lines",
        toForm: (b) => b.teamPhrases,
        // An empty field arrives as no value at all (conform): no phrases of the brand's own.
        schema: z
          .string()
          .max(4000, "Too long.")
          .optional()
          .transform((v) => v ?? ""),
      },
      {
        name: "camsPromoEnabled",
        label: "Cams promo block",
        hint: "Shown only when its partner settings are valid.",
        kind: "check",
        toForm: (b) => (b.camsPromoEnabled ? "on" : ""),
        schema: check(),
      },
    ],
  },
  {
    legend: "Support and mail",
    fields: [
      {
        name: "supportPhone",
        label: "Support phone",
        kind: "text",
        toForm: (b) => b.supportPhone,
        schema: phone(),
      },
      {
        name: "supportEmail",
        label: "Support e-mail",
        kind: "email",
        toForm: (b) => b.supportEmail,
        schema: z.string().trim().toLowerCase().max(254, "At most 254 characters.").email("An e-mail address."),
        blankWhenNew: true,
      },
      {
        name: "mailName",
        label: "Sender name in mails",
        kind: "text",
        toForm: (b) => b.mailName,
        schema: line(1, 60).refine((v) => !/["<>,;\\]/.test(v), 'No " < > , ; or \\ (it goes into the From header).'),
        blankWhenNew: true,
      },
    ],
  },
]);

export const brandFields = lazy((): BrandField[] => brandFieldsets().flatMap((s) => s.fields));

/** The receipts' seller: a company may serve several brands, so a change here shows on all of theirs. */
export const companyFieldset = lazy((): Fieldset<Company> => ({
  legend: "Company details (receipts, imprint)",
  fields: [
    { name: "name", label: "Company name", kind: "text", toForm: (c) => c.name, schema: line(1, 120) },
    { name: "address", label: "Street address", kind: "text", toForm: (c) => c.address, schema: line(1, 200) },
    { name: "city", label: "Postcode and city", kind: "text", toForm: (c) => c.city, schema: line(1, 120) },
    {
      name: "country",
      label: "Country",
      kind: "text",
      toForm: (c) => c.country,
      schema: z
        .string()
        .trim()
        .toUpperCase()
        .refine((c) => ISO_COUNTRIES.has(c), "An ISO two-letter code such as NL."),
    },
    { name: "kvk", label: "Registration number", kind: "text", toForm: (c) => c.kvk, schema: line(1, 60) },
    {
      name: "vatNumbers",
      label: "VAT numbers",
      hint: "Comma separated, e.g. NL864512378B01.",
      kind: "list",
      toForm: (c) => list(c.vatNumbers),
      schema: z
        .string()
        .max(500, "Too long.")
        .transform(codeList)
        .refine(
          (l) => l.every((n) => /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/.test(n)),
          "VAT numbers start with the country code.",
        ),
    },
    {
      name: "tradenames",
      label: "Trade names",
      hint: "Comma separated.",
      kind: "list",
      toForm: (c) => list(c.tradenames),
      schema: z
        .string()
        .max(500, "Too long.")
        .transform((v) =>
          v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        )
        .refine((l) => l.every((n) => n.length <= 80 && !CONTROL.test(n)), "Names of at most 80 characters."),
    },
    {
      name: "supportPhone",
      label: "Company phone",
      kind: "text",
      toForm: (c) => c.supportPhone,
      schema: phone(),
    },
    {
      name: "deleteDiscount",
      label: "Discount offered before deleting an account (%)",
      kind: "int",
      toForm: (c) => String(c.deleteDiscount),
      schema: int(0, 90),
    },
    {
      name: "mollieAccount",
      label: "Mollie account",
      hint: "The company's own Mollie organisation: its key is the secret MOLLIE_API_KEY_<this name> (capitals, digits, _). Empty: none, and production refuses its brands.",
      kind: "text",
      toForm: (c) => c.mollieAccount ?? "",
      schema: optional(MOLLIE_ACCOUNT_PATTERN, "Capital letters, digits and _ such as AMORA (at most 40).", true),
    },
    // The Impressum's fields (decision 213): required where a German or Austrian brand uses the company.
    {
      name: "registerCourt",
      label: "Register court (Impressum)",
      hint: "The court that keeps the commercial register, e.g. Amtsgericht Charlottenburg.",
      kind: "text",
      toForm: (c) => c.registerCourt,
      schema: optionalLine(120),
    },
    {
      name: "managingDirectors",
      label: "Managing directors (Impressum)",
      hint: "Comma separated.",
      kind: "text",
      toForm: (c) => c.managingDirectors,
      schema: optionalLine(200),
    },
    {
      name: "youthOfficerName",
      label: "Youth-protection officer (Jugendschutzbeauftragter)",
      kind: "text",
      toForm: (c) => c.youthOfficerName,
      schema: optionalLine(120),
    },
    {
      name: "youthOfficerEmail",
      label: "Youth-protection officer's e-mail",
      kind: "email",
      toForm: (c) => c.youthOfficerEmail,
      schema: optionalLine(254)
        .transform((v) => v.toLowerCase())
        .refine((v) => v === "" || z.string().email().safeParse(v).success, "An e-mail address."),
    },
    {
      name: "youthOfficerPhone",
      label: "Youth-protection officer's phone",
      kind: "text",
      toForm: (c) => c.youthOfficerPhone,
      schema: optionalLine(30).refine(
        (v) => v === "" || phone().safeParse(v).success,
        "A phone number such as +31 20-123 45 67.",
      ),
    },
    {
      name: "disputeResolution",
      label: "Consumer dispute resolution (§ 36 VSBG)",
      kind: "select",
      options: [
        ["", "Not stated"],
        ["unwilling", "Neither willing nor obliged to take part"],
        ["willing", "Takes part before the board named below"],
      ],
      toForm: (c) => c.disputeResolution,
      schema: oneOf(["unwilling", "willing"])
        .optional()
        .transform((v) => v ?? ""),
    },
    {
      name: "disputeBoard",
      label: "Consumer dispute board (name and address)",
      kind: "text",
      toForm: (c) => c.disputeBoard,
      schema: optionalLine(300),
    },
  ],
}));

/** The company's fields are posted with this prefix (brand and company both have a support phone). */
export const COMPANY_PREFIX = "company_";

/** The zod object of a field list (form names, with `prefix`, → column values). */
export function schemaOf<Row>(fields: FormField<Row>[], prefix = "") {
  return z.object(Object.fromEntries(fields.map((f) => [prefix + f.name, f.schema])) as Record<string, z.ZodTypeAny>);
}

/** A row as the form shows it (form names, with `prefix`). */
export function formValuesOf<Row>(
  fields: FormField<Row>[],
  row: Row,
  o: { blankNew?: boolean; prefix?: string } = {},
): Record<string, string> {
  return Object.fromEntries(
    fields.map((f) => [(o.prefix ?? "") + f.name, o.blankNew && f.blankWhenNew ? "" : f.toForm(row)]),
  );
}
