/**
 * What a brand with team-run profiles may not say (decision 212): per language, the words that promise a
 * date or a meeting, and the claims that someone is waiting or that conversations are "real". Matched
 * as whole words, case-insensitively. `allowed` lists the legitimate uses removed before matching: a
 * date of birth, a calendar date, and the team-run label's own "you cannot meet this person".
 */
import type { Language } from "../../app/lib/constants";

export type WordList = { words: string[]; allowed: string[] };

export const DATE_WORDS: Record<Language, WordList> = {
  en: {
    words: [
      "date",
      "dates",
      "dating",
      "meet",
      "meets",
      "meeting",
      "meetings",
      "meet-up",
      "meetup",
      "real conversations",
      "waiting for you",
      "waiting for your message",
      "keep her waiting",
      "keep him waiting",
      "are waiting",
    ],
    // A payment's calendar date, and meeting an obligation, are no promise of a meeting.
    allowed: [
      "date of birth",
      "cannot meet this person",
      "date or number of the payment",
      "the date and amount",
      "meet our accounting",
    ],
  },
  de: {
    words: [
      "Date",
      "Dates",
      "Dating",
      "treffen",
      "trifft",
      "Treffen",
      "kennenlernen",
      "kennen lernen",
      "Verabredung",
      "Rendezvous",
      "echte Gespräche",
      "wartet auf dich",
      "wartet auf deine Nachricht",
      "warten lassen",
      "warten auf dich",
    ],
    allowed: ["diese Person nicht treffen", "diese Person kannst du nicht treffen"],
  },
  nl: {
    words: [
      "date",
      "dates",
      "daten",
      "dating",
      "afspraakje",
      "afspreken",
      "ontmoeten",
      "ontmoet",
      "ontmoeting",
      "echte gesprekken",
      "wacht op je",
      "wacht op jou",
      "wacht op je bericht",
      "laat haar niet wachten",
      "laat hem niet wachten",
      "wachten op je",
    ],
    allowed: ["deze persoon niet ontmoeten"],
  },
  fr: {
    words: [
      "rencontre",
      "rencontres",
      "rencontrer",
      "rencontrez",
      "rendez-vous",
      "rencard",
      "dating",
      "vraies conversations",
      "vous attend",
      "t'attend",
      "attend votre message",
      "faites pas attendre",
      "la faites pas attendre",
    ],
    allowed: ["ne pouvez pas rencontrer cette personne"],
  },
  it: {
    words: [
      "incontrare",
      "incontri",
      "incontro",
      "incontra",
      "incontrarsi",
      "appuntamento",
      "appuntamenti",
      "dating",
      "conversazioni vere",
      "vere conversazioni",
      "ti aspetta",
      "ti aspettano",
      "aspetta il tuo messaggio",
      "farla aspettare",
    ],
    allowed: ["non puoi incontrare questa persona"],
  },
  es: {
    words: [
      "cita",
      "citas",
      "conocer",
      "conoce",
      "quedar",
      "quedada",
      "encuentro",
      "encuentros",
      "dating",
      "conversaciones reales",
      "te espera",
      "te esperan",
      "espera tu mensaje",
      "hacerla esperar",
      "la hagas esperar",
    ],
    allowed: ["no puedes conocer a esta persona", "no puedes quedar con esta persona"],
  },
  pl: {
    words: [
      "randka",
      "randki",
      "randkę",
      "randek",
      "randkowy",
      "randkowanie",
      "randkowe",
      "spotkać",
      "spotkanie",
      "spotkania",
      "spotkaj",
      "poznać",
      "poznaj",
      "poznawać",
      "prawdziwe rozmowy",
      "czeka na ciebie",
      "czekają na ciebie",
      "czeka na twoją wiadomość",
      "każ jej czekać",
    ],
    allowed: ["nie możesz spotkać tej osoby"],
  },
  da: {
    words: [
      "date",
      "dates",
      "dating",
      "møde",
      "mødes",
      "møder",
      "mød",
      "ægte samtaler",
      "venter på dig",
      "venter på din besked",
      "lad hende ikke vente",
    ],
    allowed: ["kan ikke møde denne person"],
  },
  nb: {
    words: [
      "date",
      "dates",
      "dating",
      "møte",
      "møtes",
      "møter",
      "møt",
      "treffe",
      "treff",
      "ekte samtaler",
      "venter på deg",
      "venter på meldingen din",
      "la henne ikke vente",
    ],
    allowed: ["kan ikke møte denne personen"],
  },
  sv: {
    words: [
      "dejt",
      "dejta",
      "dejting",
      "dejtar",
      "dejter",
      "träffa",
      "träffas",
      "träff",
      "möta",
      "möts",
      "äkta samtal",
      "riktiga samtal",
      "väntar på dig",
      "väntar på ditt meddelande",
      "låt henne inte vänta",
    ],
    allowed: ["kan inte träffa den här personen"],
  },
  fi: {
    words: [
      "treffit",
      "treffeille",
      "treffeillä",
      "treffi",
      "tavata",
      "tapaa",
      "tapaamaan",
      "tapaaminen",
      "tapaamisia",
      "tutustu",
      "tutustua",
      "deittailu",
      "deitti",
      "aitoja keskusteluja",
      "odottaa sinua",
      "odottavat sinua",
      "odottaa viestiäsi",
      "anna hänen odottaa",
    ],
    allowed: ["etkä voi tavata tätä henkilöä"],
  },
};

/**
 * What a brand without team profiles may not say (it runs none, and it is a dating service): per
 * language, the claims that profiles are run by the team, the team-run label's own term, "entertainment",
 * and that meeting is not the service's purpose. Matched as whole words, case-insensitively. ("Team"
 * alone is allowed: customer service and reports are a team's work; German "Unterhaltung" alone means a
 * conversation too.)
 */
export const TEAM_CLAIMS: Record<Language, string[]> = {
  en: [
    "run by our team",
    "team-run",
    "team profile",
    "entertainment",
    "entertainment profile",
    "entertainment profiles",
    "physical meeting",
    "physical meetings",
    "not the purpose",
  ],
  de: [
    "von unserem Team betrieben",
    "vom Team betriebenes",
    "Teamprofil",
    "zur Unterhaltung",
    "Unterhaltungsdienst",
    "Unterhaltungsprofil",
    "Unterhaltungsprofile",
    "persönliches Treffen",
    "persönliche Treffen",
    "nicht der Zweck",
  ],
  nl: [
    "door ons team beheerd",
    "beheerd door ons team",
    "teamprofiel",
    "entertainment",
    "entertainmentprofiel",
    "ter vermaak",
    "fysieke ontmoeting",
    "fysieke ontmoetingen",
    "niet het doel",
  ],
  fr: [
    "gérés par notre équipe",
    "géré par l'équipe",
    "divertissement",
    "rencontre physique",
    "rencontres physiques",
    "pas l'objet",
  ],
  it: [
    "gestiti dal nostro team",
    "gestito dal team",
    "intrattenimento",
    "incontro fisico",
    "incontri fisici",
    "non sono lo scopo",
  ],
  es: [
    "gestiona nuestro equipo",
    "gestionado por el equipo",
    "entretenimiento",
    "encuentro físico",
    "encuentros físicos",
    "no son el objetivo",
  ],
  pl: [
    "prowadzone przez nasz zespół",
    "prowadzony przez zespół",
    "rozrywka",
    "rozrywkowy",
    "rozrywkowe",
    "rozrywkowym",
    "rozrywkowych",
    "spotkanie na żywo",
    "spotkania na żywo",
    "nie są celem",
  ],
  da: [
    "drives af vores team",
    "teamdrevet",
    "underholdning",
    "underholdningsprofiler",
    "fysisk møde",
    "fysiske møder",
    "ikke formålet",
  ],
  nb: [
    "drives av teamet vårt",
    "teamdrevet",
    "underholdning",
    "underholdningsprofiler",
    "fysisk møte",
    "fysiske møter",
    "ikke formålet",
  ],
  sv: [
    "drivs av vårt team",
    "teamdriven",
    "underhållning",
    "underhållningssyfte",
    "underhållningsprofiler",
    "fysiskt möte",
    "fysiska möten",
    "inte syftet",
  ],
  fi: [
    "ylläpitää tiimimme",
    "tiimin ylläpitämä",
    "viihde",
    "viihdekäyttöön",
    "viihdetarkoituksessa",
    "viihdeprofiileiksi",
    "eivät ole tämän palvelun tarkoitus",
  ],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Each of `words` found in `text` as a whole word, case-insensitively, with 40 characters around it. */
function wordsIn(text: string, words: string[]): string[] {
  const found = new Set<string>();
  for (const w of words) {
    const m = new RegExp(`(?<![\\p{L}\\p{N}-])${escape(w)}(?![\\p{L}\\p{N}-])`, "iu").exec(text);
    if (m) found.add(text.slice(Math.max(0, m.index - 40), m.index + w.length + 40).trim());
  }
  return [...found];
}

/** The claims of team-run profiles or entertainment found in `text` (a page's visible text) for `lng`. */
export function teamClaimsIn(text: string, lng: Language): string[] {
  return wordsIn(text.replace(/\s+/g, " "), TEAM_CLAIMS[lng]);
}

/** The forbidden words found in `text` (a page's or mail's visible text) for `lng`, after removing the allowed uses. */
export function dateWordsIn(text: string, lng: Language): string[] {
  const list = DATE_WORDS[lng];
  let rest = text.replace(/\s+/g, " ");
  for (const a of list.allowed) rest = rest.replace(new RegExp(escape(a), "giu"), " ");
  return wordsIn(rest, list.words);
}
