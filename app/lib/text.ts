/**
 * The one text normaliser for everything a member types (docs/architecture/security.md §5, decision 082): NFC;
 * control, bidi-override and invisible characters removed; single-line fields lose line breaks;
 * surrounding white space trimmed. A value with nothing visible left becomes "" (blank), which a
 * required field then refuses. Pure, so the forms' zod schemas run it in the browser too.
 */
import { z } from "zod";

// C0/C1 controls (line breaks are handled first), bidi embeddings/overrides/isolates and marks,
// zero-width space, word joiner and invisible operators, BOM, Mongolian vowel separator, the
// soft hyphen and interlinear annotation marks.
const STRIP =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
// Characters that draw nothing but are not white space: joiners and variation selectors (kept
// inside emoji), Hangul fillers and the blank braille pattern (used for "invisible" names).
// oxlint-disable-next-line no-misleading-character-class -- each joiner and selector is listed on its own on purpose
const INVISIBLE = /[\s\u034f\u115f\u1160\u17b4\u17b5\u200c\u200d\u2800\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

export function normaliseText(value: string, o: { multiline?: boolean } = {}): string {
  let s = value.normalize("NFC").replace(/\r\n?/g, "\n");
  s = o.multiline ? s.replace(/\t/g, " ") : s.replace(/[\t\n\u2028\u2029\u0085]+/g, " ");
  s = s.replace(STRIP, "").replace(/[\u115f\u1160\u3164\uffa0\u2800]/g, "");
  if (!o.multiline) s = s.replace(/ {2,}/g, " ");
  s = s.trim();
  return s.replace(INVISIBLE, "") === "" ? "" : s;
}

/** The wrapped schema keeps its input type, so forms (conform) still see a string field. */
type Cleaned<T extends z.ZodTypeAny> = z.ZodEffects<T, z.output<T>, z.input<T>>;

const clean = (multiline: boolean) => (v: unknown) => (typeof v === "string" ? normaliseText(v, { multiline }) : v);

/** A zod string field of one line (names, cities, codes), normalised before the rules run. */
export const line = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(clean(false), schema) as Cleaned<T>;

/** A zod string field of several lines (about me, remarks, messages), normalised before the rules run. */
export const paragraph = <T extends z.ZodTypeAny>(schema: T) => z.preprocess(clean(true), schema) as Cleaned<T>;

/** A typed list of codes ("de, at;CH") as upper-case items: commas, semicolons or spaces between them. */
export const codeList = (value: string): string[] =>
  value
    .toUpperCase()
    .split(/[\s,;]+/)
    .filter(Boolean);
