/**
 * The new-message e-mail in the receiver's language. Only the chat namespace is imported, so the
 * Durable Object's bundle does not carry every translation a second time.
 */
import da from "../../locales/da/chat.json";
import de from "../../locales/de/chat.json";
import en from "../../locales/en/chat.json";
import es from "../../locales/es/chat.json";
import fi from "../../locales/fi/chat.json";
import fr from "../../locales/fr/chat.json";
import it from "../../locales/it/chat.json";
import nb from "../../locales/nb/chat.json";
import nl from "../../locales/nl/chat.json";
import pl from "../../locales/pl/chat.json";
import sv from "../../locales/sv/chat.json";

const MAIL: Record<string, { subject: string; text: string; cta: string }> = {
  da: da.mail, de: de.mail, en: en.mail, es: es.mail, fi: fi.mail, fr: fr.mail, it: it.mail, nb: nb.mail, nl: nl.mail,
  pl: pl.mail, sv: sv.mail,
};

const fill = (s: string, v: Record<string, string>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => v[k] ?? "");
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function mailText(language: string, v: { name: string; brand: string; url: string }) {
  const m = MAIL[language] ?? MAIL.en!;
  const subject = fill(m.subject, v);
  const text = `${fill(m.text, v)}\n\n${fill(m.cta, v)}: ${v.url}\n`;
  const html = `<p>${esc(fill(m.text, v))}</p><p><a href="${esc(v.url)}">${esc(fill(m.cta, v))}</a></p>`;
  return { subject, text, html };
}
