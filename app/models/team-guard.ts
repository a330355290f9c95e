/**
 * What a team-run profile may not say (decision 201): a team reply that proposes meeting, gives
 * contact details or a link, or asks for money or gifts outside the site is refused; a profile's own
 * texts are warned about, and also for promising a real relationship. Built-in phrase lists per
 * language (every language is checked: a member may write in any) plus the brand's own phrases, and
 * phone, e-mail and URL patterns. Pure: the console's reply, the profile editor and tests share it.
 */

export type GuardReason = "meeting" | "contact" | "link" | "money" | "relationship" | "brand" | "age" | "town";

/** Why the console refuses (or warns about) a text, as it tells the operator. */
export const GUARD_REASONS: Record<GuardReason, string> = {
  meeting: "It proposes meeting in person.",
  contact: "It gives contact details (a phone number, an e-mail address or another messenger).",
  link: "It contains a link or a web address.",
  money: "It asks for money or gifts outside the site.",
  relationship: "It promises a meeting or a real relationship.",
  brand: "It contains a phrase on the brand's list.",
  age: "It states an age other than the profile's.",
  town: "It names another town as the profile's home.",
};

type Lists = Record<Exclude<GuardReason, "link" | "brand" | "age" | "town">, string[]>;

/** Lower case, accents and punctuation folded, single spaces: "Let's  Meet!" -> "let s meet". */
export function foldText(text: string): string {
  return ` ${text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/ø/g, "o")
    .replace(/æ/g, "ae")
    .replace(/œ/g, "oe")
    .replace(/ł/g, "l")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;
}

/** Per language; matched on whole words after folding (so "meeting point" in a longer word does not count). */
const PHRASES: Record<string, Lists> = {
  en: {
    meeting: [
      "let s meet",
      "meet up",
      "meet me",
      "meet you",
      "see you in person",
      "my place",
      "your place",
      "come over",
      "date tonight",
      "in real life",
    ],
    contact: [
      "whatsapp",
      "telegram",
      "snapchat",
      "instagram",
      "kik",
      "signal me",
      "my number",
      "call me",
      "text me",
      "skype",
    ],
    money: [
      "send money",
      "gift card",
      "giftcard",
      "paypal",
      "western union",
      "bitcoin",
      "bank transfer",
      "iban",
      "wire me",
      "amazon voucher",
      "moneygram",
    ],
    relationship: ["real connection", "real relationship", "real love", "soulmate", "we will meet", "marry"],
  },
  de: {
    meeting: [
      "treffen wir uns",
      "lass uns treffen",
      "uns treffen",
      "komm vorbei",
      "im echten leben",
      "persönlich sehen",
    ],
    contact: ["meine nummer", "ruf mich an", "schreib mir auf"],
    money: ["geld schicken", "uberweisung", "gutschein", "geschenkkarte", "uberweise"],
    relationship: ["echte verbindung", "echte beziehung", "echte liebe", "seelenverwandt"],
  },
  nl: {
    meeting: ["laten we afspreken", "afspreken", "ontmoeten", "kom langs", "bij mij thuis", "in het echt"],
    contact: ["mijn nummer", "bel me", "app me"],
    money: ["geld sturen", "geld overmaken", "cadeaukaart", "tikkie"],
    relationship: ["echte klik", "echte relatie", "echte liefde", "zielsverwant"],
  },
  fr: {
    meeting: ["se voir", "on se voit", "rencontrons nous", "se rencontrer", "viens chez moi"],
    contact: ["mon numero", "appelle moi", "ecris moi sur"],
    money: ["envoie moi de l argent", "envoyer de l argent", "carte cadeau", "virement"],
    relationship: ["vraie connexion", "vraie relation", "vrai amour", "ame soeur"],
  },
  es: {
    meeting: ["quedamos", "vernos", "conocernos en persona", "ven a mi casa", "en persona"],
    contact: ["mi numero", "llamame", "escribeme al"],
    money: ["enviar dinero", "mandame dinero", "tarjeta regalo", "transferencia", "bizum"],
    relationship: ["conexion real", "relacion real", "amor verdadero", "alma gemela"],
  },
  it: {
    meeting: ["vediamoci", "incontriamoci", "incontrarci", "vieni da me", "dal vivo", "di persona"],
    contact: ["il mio numero", "chiamami", "scrivimi su"],
    money: ["mandami soldi", "inviare soldi", "buono regalo", "carta regalo", "bonifico"],
    relationship: ["connessione vera", "relazione vera", "amore vero", "anima gemella"],
  },
  pl: {
    meeting: ["spotkajmy sie", "spotkac sie", "wpadnij do mnie", "na zywo", "osobiscie"],
    contact: ["moj numer", "zadzwon do mnie", "napisz na"],
    money: ["wyslij pieniadze", "przelew", "karta podarunkowa", "blik"],
    relationship: ["prawdziwa wiez", "prawdziwy zwiazek", "prawdziwa milosc", "bratnia dusza"],
  },
  da: {
    meeting: ["lad os motes", "motes", "kom forbi", "hjem til mig", "i virkeligheden"],
    contact: ["mit nummer", "ring til mig", "skriv til mig pa"],
    money: ["send penge", "overforsel", "gavekort", "mobilepay"],
    relationship: ["aegte forbindelse", "aegte forhold", "aegte kaerlighed", "sjaelefaelle"],
  },
  sv: {
    meeting: ["traffas", "kom hem till mig", "pa riktigt"],
    contact: ["mitt nummer", "ring mig", "skriv till mig pa"],
    money: ["skicka pengar", "overforing", "presentkort", "swish"],
    relationship: ["akta kontakt", "riktig relation", "akta karlek", "sjalsfrande"],
  },
  nb: {
    meeting: ["la oss motes", "motes", "kom hjem til meg", "i virkeligheten"],
    contact: ["nummeret mitt", "ring meg", "skriv til meg pa"],
    money: ["send penger", "overforing", "gavekort", "vipps"],
    relationship: ["ekte forbindelse", "ekte forhold", "ekte kjaerlighet", "sjelevenn"],
  },
  fi: {
    meeting: ["tavataan", "tavata", "tule kylaan", "oikeassa elamassa", "livena"],
    contact: ["numeroni", "soita minulle", "laita viestia"],
    money: ["laheta rahaa", "tilisiirto", "lahjakortti", "mobilepay"],
    relationship: ["aito yhteys", "oikea suhde", "aito rakkaus", "sielunkumppani"],
  },
};

const URL_PATTERN =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]{2,}\s*(?:\.|\(dot\)|\[dot\])\s*(?:com|net|org|info|io|me|ly|app|de|nl|fr|es|it|pl|dk|se|no|fi|eu|co|uk|be|at|ch)\b/i;
const EMAIL_PATTERN = /[\w.+-]+\s*(?:@|\(at\)|\[at\])\s*[\w-]+\s*(?:\.|\(dot\)|\[dot\])\s*[a-z]{2,}/i;
/** Seven or more digits with only separators between them (spaces, dots, dashes, brackets, a leading +). */
const PHONE_PATTERN = /(?:\+|\b)\d(?:[\s()./-]{0,3}\d){6,}/;

/** The brand's own phrases (one per line). */
export const brandPhrases = (raw: string) =>
  raw
    .split(/\r?\n/)
    .map((l) => foldText(l).trim())
    .filter((l) => l.length >= 3);

function firstPhrase(folded: string, phrases: string[]): boolean {
  return phrases.some((p) => folded.includes(` ${foldText(p).trim()} `));
}

/**
 * Every reason `text` breaks (empty: fine). `profileText`: a profile's own texts, where promising a
 * real relationship counts too.
 */
export function guardReasons(text: string, extra: string[] = [], profileText = false): GuardReason[] {
  const folded = foldText(text);
  const out = new Set<GuardReason>();
  if (URL_PATTERN.test(text)) out.add("link");
  if (EMAIL_PATTERN.test(text) || PHONE_PATTERN.test(text)) out.add("contact");
  for (const lists of Object.values(PHRASES)) {
    if (firstPhrase(folded, lists.meeting)) out.add("meeting");
    if (firstPhrase(folded, lists.contact)) out.add("contact");
    if (firstPhrase(folded, lists.money)) out.add("money");
    if (profileText && firstPhrase(folded, lists.relationship)) out.add("relationship");
  }
  if (firstPhrase(folded, extra)) out.add("brand");
  return [...out];
}

// ---------------------------------------------------------------------------------------------
// The persona's own facts. A heuristic, kept to clear first-person statements per language: "I'm 25",
// "ich bin 25", "j'ai 25 ans"; "I live in Utrecht", "ik woon in Utrecht", "je suis de Lyon". A town
// counts only when written capitalised and found in the towns table (the caller looks it up), so "I
// live in a small village" or "I'm from Germany" never refuse; inflected forms (Polish "w Krakowie",
// Finnish "Helsingissä") are not caught.

/** Folded first-person age statements per language (the number follows). */
const AGE_STATEMENTS = [
  "i m",
  "i am",
  "i turned",
  "ich bin",
  "ich werde",
  "ik ben",
  "ik word",
  "j ai",
  "tengo",
  "ho",
  "mam",
  "jeg er",
  "jeg blir",
  "jag ar",
  "jag fyller",
  "olen",
];
/** A number followed by one of these is a distance, a time or an amount, not an age. */
const NOT_AGE =
  /^(?:min\w*|minut\w*|km|kilomet\w*|mil\w*|mi|m|meter\w*|cm|kg|kilo\w*|euro?s?|eur|€|h|hours?|hrs?|uur|stunde\w*|timer?|tim\w*|tunti\w*|godzin\w*|ore|heures?|horas?|procent|percent|prozent|prosent|%|times|keer|mal|gange|ganger|kertaa|veces|fois|volte|razy|o clock|uhr|euros)$/;
const AGE_PATTERN = new RegExp(` (?:${AGE_STATEMENTS.join("|")}) (\\d{1,3})(?: (\\S+))?`, "g");

/** Ages the text states as the writer's own. */
export function statedAges(text: string): number[] {
  const folded = foldText(text);
  const out: number[] = [];
  // Overlapping matches: step back one character after each (the pattern starts with a space).
  AGE_PATTERN.lastIndex = 0;
  for (let m = AGE_PATTERN.exec(folded); m; m = AGE_PATTERN.exec(folded)) {
    AGE_PATTERN.lastIndex = m.index + 1;
    const age = Number(m[1]);
    if (age < 16 || age > 99) continue;
    if (m[2] && NOT_AGE.test(m[2])) continue;
    out.push(age);
  }
  return out;
}

/** First-person statements of one's home town per language, on the raw text (the name keeps its capital). */
const TOWN_STATEMENTS = [
  "i live in",
  "i(?:'|’| a)?m from",
  "my home ?town is",
  "ich wohne in",
  "ich lebe in",
  "ich komme aus",
  "ik woon in",
  "ik kom uit",
  "j(?:'|’)habite (?:à|a)",
  "je vis (?:à|a)",
  "je suis de",
  "vivo en",
  "soy de",
  "abito a",
  "vivo a",
  "sono di",
  "mieszkam w",
  "jestem z",
  "jeg bor i",
  "jeg er fra",
  "jag bor i",
  "jag (?:är|ar) från",
  "asun",
  "olen kotoisin",
];
const TOWN_STATEMENT = new RegExp(
  `(?<!\\p{L})(?:${TOWN_STATEMENTS.map((s) => s.replace(/ /g, "\\s+")).join("|")})` +
    "\\s+([\\p{L}][\\p{L}'’.-]*(?:[\\s-]+[\\p{L}][\\p{L}'’.-]*){0,2})",
  "giu",
);

/** Towns the text names as the writer's home: capitalised names after a first-person statement (1–3 words). */
export function statedTowns(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(TOWN_STATEMENT)) {
    const words: string[] = [];
    for (const w of m[1]!.split(/\s+/)) {
      if (!/^\p{Lu}/u.test(w)) break;
      words.push(w.replace(/[.'’-]+$/, ""));
    }
    // "Den Haag", "Frankfurt am Main": every prefix is a candidate (the table decides which is a town).
    for (let n = words.length; n >= 1; n--) out.add(words.slice(0, n).join(" "));
  }
  return [...out];
}

/** Does a stated town name the profile's own (accents and case folded)? */
export const sameTown = (a: string, b: string) => foldText(a) === foldText(b);

/**
 * The persona rules: an age stated other than the profile's, a known town (`knownTowns`: those of the
 * stated names the towns table holds) other than the profile's named as home.
 */
export function personaReasons(
  text: string,
  profile: { age: number | null; city: string },
  knownTowns: string[],
): GuardReason[] {
  const out: GuardReason[] = [];
  if (profile.age !== null && statedAges(text).some((a) => a !== profile.age)) out.push("age");
  const own = statedTowns(text).some((t) => sameTown(t, profile.city));
  if (!own && knownTowns.some((t) => !sameTown(t, profile.city))) out.push("town");
  return out;
}
