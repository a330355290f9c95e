/**
 * The EU DSA Transparency Database's rules for a statement of reasons (decision 205), as its API
 * validates a submission (POST /api/v1/statement, its StatementStoreRequest): the allowed values of
 * each field, what is required with what, the lengths. Our export and every submission are checked
 * against these before they leave, and the local stand-in of the database answers with them.
 * Pure: no server imports, so the console's form can list the legal grounds too.
 */

/** Territorial scope: only EU and EEA member states (EEA = EU + IS, LI, NO). */
export const EEA_COUNTRIES = [
  "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IS", "IT",
  "LI", "LT", "LU", "LV", "MT", "NL", "NO", "PL", "PT", "RO", "SE", "SI", "SK",
] as const; // prettier-ignore

const DECISION_VISIBILITIES = [
  "DECISION_VISIBILITY_CONTENT_REMOVED",
  "DECISION_VISIBILITY_CONTENT_DISABLED",
  "DECISION_VISIBILITY_CONTENT_DEMOTED",
  "DECISION_VISIBILITY_CONTENT_AGE_RESTRICTED",
  "DECISION_VISIBILITY_CONTENT_INTERACTION_RESTRICTED",
  "DECISION_VISIBILITY_CONTENT_LABELLED",
  "DECISION_VISIBILITY_OTHER",
];
const DECISION_MONETARIES = [
  "DECISION_MONETARY_SUSPENSION",
  "DECISION_MONETARY_TERMINATION",
  "DECISION_MONETARY_OTHER",
];
const DECISION_PROVISIONS = [
  "DECISION_PROVISION_PARTIAL_SUSPENSION",
  "DECISION_PROVISION_TOTAL_SUSPENSION",
  "DECISION_PROVISION_PARTIAL_TERMINATION",
  "DECISION_PROVISION_TOTAL_TERMINATION",
];
const DECISION_ACCOUNTS = ["DECISION_ACCOUNT_SUSPENDED", "DECISION_ACCOUNT_TERMINATED"];
const ACCOUNT_TYPES = ["ACCOUNT_TYPE_BUSINESS", "ACCOUNT_TYPE_PRIVATE"];
const DECISION_GROUNDS = ["DECISION_GROUND_ILLEGAL_CONTENT", "DECISION_GROUND_INCOMPATIBLE_CONTENT"];
const CONTENT_TYPES = [
  "CONTENT_TYPE_APP",
  "CONTENT_TYPE_AUDIO",
  "CONTENT_TYPE_IMAGE",
  "CONTENT_TYPE_PRODUCT",
  "CONTENT_TYPE_SYNTHETIC_MEDIA",
  "CONTENT_TYPE_TEXT",
  "CONTENT_TYPE_VIDEO",
  "CONTENT_TYPE_OTHER",
];
const CATEGORIES = [
  "STATEMENT_CATEGORY_ANIMAL_WELFARE",
  "STATEMENT_CATEGORY_CONSUMER_INFORMATION",
  "STATEMENT_CATEGORY_CYBER_VIOLENCE",
  "STATEMENT_CATEGORY_CYBER_VIOLENCE_AGAINST_WOMEN",
  "STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS",
  "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH",
  "STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS",
  "STATEMENT_CATEGORY_NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS",
  "STATEMENT_CATEGORY_NOT_SPECIFIED_NOTICE",
  "STATEMENT_CATEGORY_OTHER_VIOLATION_TC",
  "STATEMENT_CATEGORY_PROTECTION_OF_MINORS",
  "STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY",
  "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
  "STATEMENT_CATEGORY_SELF_HARM",
  "STATEMENT_CATEGORY_UNSAFE_AND_PROHIBITED_PRODUCTS",
  "STATEMENT_CATEGORY_VIOLENCE",
];
/** The keywords (category_specification) our categories use; the database knows more. */
const KEYWORDS = [
  "KEYWORD_ADULT_SEXUAL_MATERIAL",
  "KEYWORD_CHILD_SEXUAL_ABUSE_MATERIAL",
  "KEYWORD_GROOMING_SEXUAL_ENTICEMENT_MINORS",
  "KEYWORD_AGE_SPECIFIC_RESTRICTIONS_MINORS",
  "KEYWORD_NON_CONSENSUAL_IMAGE_SHARING",
  "KEYWORD_CYBER_HARASSMENT",
  "KEYWORD_CYBER_BULLYING_INTIMIDATION",
  "KEYWORD_CYBER_STALKING",
  "KEYWORD_HATE_SPEECH",
  "KEYWORD_INCITEMENT_VIOLENCE_HATRED",
  "KEYWORD_HUMAN_TRAFFICKING",
  "KEYWORD_TERRORIST_CONTENT",
  "KEYWORD_PHISHING",
  "KEYWORD_PYRAMID_SCHEMES",
  "KEYWORD_IMPERSONATION_ACCOUNT_HIJACKING",
  "KEYWORD_INAUTHENTIC_ACCOUNTS",
  "KEYWORD_HIDDEN_ADVERTISEMENT",
  "KEYWORD_GOODS_SERVICES_NOT_PERMITTED",
  "KEYWORD_NUDITY",
  "KEYWORD_VIOLATION_EU_LAW",
  "KEYWORD_VIOLATION_NATIONAL_LAW",
  "KEYWORD_OTHER",
];
const SOURCE_TYPES = [
  "SOURCE_ARTICLE_16",
  "SOURCE_TRUSTED_FLAGGER",
  "SOURCE_TYPE_OTHER_NOTIFICATION",
  "SOURCE_VOLUNTARY",
];
const AUTOMATED_DECISIONS = [
  "AUTOMATED_DECISION_FULLY",
  "AUTOMATED_DECISION_PARTIALLY",
  "AUTOMATED_DECISION_NOT_AUTOMATED",
];
/** ISO 639-1 codes of our languages as the database writes them (it accepts every ISO 639-1 code). */
const LANGUAGES = ["DA", "DE", "EN", "ES", "FI", "FR", "IT", "NB", "NL", "PL", "SV", "NO"];

/**
 * Legal provisions an illegal-content decision may rest on, per report category (EU law, in force in
 * every member state the brands serve). The moderator chooses one; the statement names it.
 */
export const LEGAL_GROUNDS = {
  csam: { category: "minor", text: "Directive 2011/93/EU, Art. 5 (child sexual abuse material)" },
  grooming: { category: "minor", text: "Directive 2011/93/EU, Art. 6 (solicitation of children for sexual purposes)" },
  ncii: {
    category: "ncii",
    text: "Directive (EU) 2024/1385, Art. 5 (non-consensual sharing of intimate or manipulated material)",
  },
  stalking: { category: "harassment", text: "Directive (EU) 2024/1385, Art. 6 (cyber stalking)" },
  harassment: { category: "harassment", text: "Directive (EU) 2024/1385, Art. 7 (cyber harassment)" },
  hatred: {
    category: "illegal",
    text: "Framework Decision 2008/913/JHA, Art. 1 (public incitement to violence or hatred)",
  },
  terrorism: {
    category: "illegal",
    text: "Directive (EU) 2017/541, Art. 5 (public provocation to commit a terrorist offence)",
  },
  trafficking: { category: "illegal", text: "Directive 2011/36/EU, Art. 2 (trafficking in human beings)" },
  fraud: { category: "scam", text: "Directive (EU) 2019/713, Art. 6 (fraud related to information systems)" },
} as const satisfies Record<string, { category: string; text: string }>;
export type LegalGround = keyof typeof LEGAL_GROUNDS;
export const isLegalGround = (key: string): key is LegalGround => Object.hasOwn(LEGAL_GROUNDS, key);

/** A statement of reasons in the database's field names. */
export type DsaStatement = {
  puid: string;
  decision_visibility: string[] | null;
  decision_monetary: null;
  decision_provision: string | null;
  decision_account: string | null;
  account_type: "ACCOUNT_TYPE_PRIVATE";
  decision_ground: "DECISION_GROUND_ILLEGAL_CONTENT" | "DECISION_GROUND_INCOMPATIBLE_CONTENT";
  decision_ground_reference_url: string;
  illegal_content_legal_ground: string | null;
  illegal_content_explanation: string | null;
  incompatible_content_ground: string | null;
  incompatible_content_explanation: string | null;
  incompatible_content_illegal: "Yes" | "No" | null;
  category: string;
  category_specification: string[];
  content_type: string[];
  content_type_other: string | null;
  content_language: string;
  content_date: string;
  application_date: string;
  end_date_account_restriction: string | null;
  end_date_visibility_restriction: string | null;
  end_date_service_restriction: string | null;
  decision_facts: string;
  source_type: "SOURCE_ARTICLE_16" | "SOURCE_VOLUNTARY";
  automated_detection: "Yes" | "No";
  automated_decision: "AUTOMATED_DECISION_NOT_AUTOMATED";
  territorial_scope: string[] | null;
};

const empty = (v: unknown) => v === null || v === undefined || v === "" || (Array.isArray(v) && v.length === 0);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The database's validation of one statement: the list of what it would refuse (field: reason),
 * empty when it accepts it. `s` is whatever is about to be sent (unknown fields are ignored, as there).
 */
export function dsaErrors(s: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const fail = (field: string, why: string) => errors.push(`${field}: ${why}`);
  const oneOf = (field: string, allowed: readonly string[], o: { required?: boolean } = {}) => {
    const v = s[field];
    if (empty(v)) {
      if (o.required) fail(field, "required");
      return;
    }
    if (typeof v !== "string" || !allowed.includes(v)) fail(field, "not an allowed value");
  };
  const list = (field: string, allowed: readonly string[], o: { required?: boolean } = {}) => {
    const v = s[field];
    if (empty(v)) {
      if (o.required) fail(field, "required");
      return;
    }
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string" || !allowed.includes(x)))
      fail(field, "not an allowed value");
  };
  const text = (field: string, max: number, required: boolean) => {
    const v = s[field];
    if (empty(v)) {
      if (required) fail(field, "required");
      return;
    }
    if (typeof v !== "string") fail(field, "not text");
    else if (v.length > max) fail(field, `longer than ${max}`);
  };
  const date = (field: string, from: string | null, required: boolean) => {
    const v = s[field];
    if (empty(v)) {
      if (required) fail(field, "required");
      return;
    }
    if (typeof v !== "string" || !DATE.test(v) || Number.isNaN(Date.parse(v))) fail(field, "not YYYY-MM-DD");
    else if ((from && v < from) || v > "2038-01-01") fail(field, "out of range");
  };

  // At least one of the four kinds of restriction.
  const kinds = ["decision_visibility", "decision_monetary", "decision_provision", "decision_account"];
  if (kinds.every((k) => empty(s[k]))) fail("decision_visibility", "one restriction is required");
  list("decision_visibility", DECISION_VISIBILITIES);
  oneOf("decision_monetary", DECISION_MONETARIES);
  oneOf("decision_provision", DECISION_PROVISIONS);
  oneOf("decision_account", DECISION_ACCOUNTS);
  oneOf("account_type", ACCOUNT_TYPES);
  list("category_specification", KEYWORDS);

  oneOf("decision_ground", DECISION_GROUNDS, { required: true });
  const url = s.decision_ground_reference_url;
  if (!empty(url) && (typeof url !== "string" || url.length > 500 || !/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url)))
    fail("decision_ground_reference_url", "not a URL");
  const illegal = s.decision_ground === "DECISION_GROUND_ILLEGAL_CONTENT";
  const incompatible = s.decision_ground === "DECISION_GROUND_INCOMPATIBLE_CONTENT";
  text("illegal_content_legal_ground", 500, illegal);
  text("illegal_content_explanation", 2000, illegal);
  text("incompatible_content_ground", 500, incompatible);
  text("incompatible_content_explanation", 2000, incompatible);
  if (incompatible) oneOf("incompatible_content_illegal", ["Yes", "No"]);

  list("content_type", CONTENT_TYPES, { required: true });
  text("content_type_other", 500, Array.isArray(s.content_type) && s.content_type.includes("CONTENT_TYPE_OTHER"));
  oneOf("category", CATEGORIES, { required: true });
  list("territorial_scope", EEA_COUNTRIES);
  oneOf("content_language", LANGUAGES);

  date("content_date", "2000-01-01", true);
  date("application_date", "2020-01-01", true);
  for (const f of [
    "end_date_account_restriction",
    "end_date_monetary_restriction",
    "end_date_service_restriction",
    "end_date_visibility_restriction",
  ])
    date(f, null, false);

  text("decision_facts", 5000, true);
  oneOf("source_type", SOURCE_TYPES, { required: true });
  oneOf("automated_detection", ["Yes", "No"], { required: true });
  oneOf("automated_decision", AUTOMATED_DECISIONS, { required: true });
  const puid = s.puid;
  if (empty(puid)) fail("puid", "required");
  else if (typeof puid !== "string" || puid.length > 500 || !/^[a-zA-Z0-9_-]+$/.test(puid)) fail("puid", "invalid");
  return errors;
}

/**
 * What in public facts looks like personal data (the console warns; the moderator rewrites or
 * confirms): an e-mail address, a number of three or more digits (phone, id, amount), the names given.
 */
export function personalDataIn(facts: string, names: readonly string[]): string[] {
  const found: string[] = [];
  if (/[^\s@]+@[^\s@]+\.[^\s@]+/.test(facts)) found.push("an e-mail address");
  if (/\d[\d\s./-]{1,}\d/.test(facts.replace(/\b(19|20)\d{2}(-\d{2}-\d{2})?\b/g, ""))) found.push("a number");
  const lower = facts.toLowerCase();
  for (const n of names)
    if (n.trim().length >= 2 && lower.includes(n.trim().toLowerCase())) found.push(`the name "${n}"`);
  return found;
}

/** A queue message: submit this decision's statement (decision 218). */
export type DsaSubmission = { decisionId: string };

/**
 * The local stand-in of the database's POST /api/v1/statement (development and tests, decision
 * 218): the same answers as the real one for what it checks: 422 with `message` and `errors` per
 * field when the statement breaks a rule, 201 with the statement and a new `uuid` otherwise.
 */
export function standInStore(body: Record<string, unknown>): { status: number; body: Record<string, unknown> } {
  const errors = dsaErrors(body);
  if (errors.length > 0) {
    const byField: Record<string, string[]> = {};
    for (const e of errors) {
      const [field, ...why] = e.split(": ");
      (byField[field!] ??= []).push(`The ${field!.replace(/_/g, " ")} field is ${why.join(": ")}.`);
    }
    const first = Object.values(byField)[0]![0]!;
    const more = errors.length - 1;
    return { status: 422, body: { message: more > 0 ? `${first} (and ${more} more errors)` : first, errors: byField } };
  }
  return { status: 201, body: { ...body, uuid: crypto.randomUUID(), created_at: new Date().toISOString() } };
}

/** Seconds before the next try of a submission that could not reach the database: 1, 2, 4… minutes, at most 12 hours. */
export const retryDelay = (attempts: number) => Math.min(60 * 2 ** Math.max(0, attempts - 1), 43_200);

/**
 * Deliveries of one queue message before its statement is marked failed (decision 225): the first and
 * `max_retries` (20) more, as every `dsa-statements` consumer in wrangler.toml sets it (a unit test
 * holds the two together). With retryDelay that is about five and a half days of trying.
 */
export const DSA_MAX_DELIVERIES = 21;
