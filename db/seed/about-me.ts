/**
 * About-me texts for demo members, in the member's own language: an opener, one or two middle
 * sentences and usually a closer. "{she|he}" picks the form for the member's gender (French,
 * Spanish, Italian and Polish adjectives), %name% and %city% are filled in.
 */
import type { Language } from "../../app/lib/constants.ts";
import { chance, pick, sample, type Rng } from "./random.ts";

type Bank = { openers: string[]; middles: string[]; mature: string; closers: string[] };

export const ABOUT_ME: Record<Language, Bank> = {
  en: {
    openers: [
      "Hi, I'm %name% from %city%.",
      "Hello from %city%!",
      "New here and curious what this will bring.",
      "Life is too short for boring conversations.",
      "Warm smile, big heart and a bit of mischief in my eyes.",
    ],
    middles: [
      "I love long walks, good food and even better company.",
      "My friends describe me as honest, playful and a little bit cheeky.",
      "At the weekend you will find me on a terrace with a glass of wine.",
      "I believe laughing together is the best start of anything.",
      "I enjoy travelling and discovering new places, preferably together.",
      "After a long day I unwind with music and a nice chat.",
      "I know what I want and I'm not shy to say it.",
      "Sometimes spontaneous, always sincere.",
    ],
    mature: "With the years came confidence: I know what I like.",
    closers: [
      "Send me a message and let's see where it goes.",
      "Curious? Say hello!",
      "Make me smile and you have my attention.",
      "Tell me about your day.",
    ],
  },
  nl: {
    openers: [
      "Hoi, ik ben %name% uit %city%.",
      "Groetjes uit %city%!",
      "Nieuw hier en benieuwd wat het gaat brengen.",
      "Het leven is te kort voor saaie gesprekken.",
      "Een warme glimlach, een groot hart en een ondeugende blik.",
    ],
    middles: [
      "Ik hou van lange wandelingen, lekker eten en nog leuker gezelschap.",
      "Vrienden noemen me eerlijk, speels en een tikkeltje brutaal.",
      "In het weekend zit ik graag op een terras met een goed glas wijn.",
      "Samen lachen is voor mij het beste begin.",
      "Ik reis graag en ontdek graag nieuwe plekken, het liefst samen.",
      "Na een lange dag ontspan ik met muziek en een fijn gesprek.",
      "Ik weet wat ik wil en durf het ook te zeggen.",
      "Soms spontaan, altijd oprecht.",
    ],
    mature: "Met de jaren kwam het zelfvertrouwen: ik weet wat ik leuk vind.",
    closers: [
      "Stuur me een berichtje en we zien wel waar het heen gaat.",
      "Nieuwsgierig? Zeg gerust hallo!",
      "Laat me lachen en je hebt mijn aandacht.",
      "Vertel me over je dag.",
    ],
  },
  de: {
    openers: [
      "Hallo, ich bin %name% aus %city%.",
      "Liebe Grüße aus %city%!",
      "Neu hier und gespannt, was passiert.",
      "Das Leben ist zu kurz für langweilige Gespräche.",
      "Ein warmes Lächeln, ein großes Herz und ein frecher Blick.",
    ],
    middles: [
      "Ich liebe lange Spaziergänge, gutes Essen und noch bessere Gesellschaft.",
      "Meine Freunde beschreiben mich als ehrlich, verspielt und ein bisschen frech.",
      "Am Wochenende sitze ich gern mit einem Glas Wein auf der Terrasse.",
      "Gemeinsam lachen ist für mich der beste Anfang.",
      "Ich reise gern und entdecke neue Orte, am liebsten zu zweit.",
      "Nach einem langen Tag entspanne ich mit Musik und einem netten Gespräch.",
      "Ich weiß, was ich will, und sage es auch.",
      "Manchmal spontan, immer ehrlich.",
    ],
    mature: "Mit den Jahren kam das Selbstbewusstsein: Ich weiß, was mir gefällt.",
    closers: [
      "Schreib mir und wir schauen, wohin es führt.",
      "Neugierig? Sag einfach Hallo!",
      "Bring mich zum Lachen und du hast meine Aufmerksamkeit.",
      "Erzähl mir von deinem Tag.",
    ],
  },
  fr: {
    openers: [
      "Salut, moi c'est %name%, de %city%.",
      "Bonjour de %city% !",
      "{Nouvelle|Nouveau} ici et {curieuse|curieux} de voir ce qui m'attend.",
      "La vie est trop courte pour les conversations ennuyeuses.",
      "Un sourire chaleureux, un grand cœur et un regard un peu coquin.",
    ],
    middles: [
      "J'adore les longues balades, la bonne cuisine et la bonne compagnie.",
      "Mes amis me décrivent comme sincère, {joueuse|joueur} et un brin {coquine|coquin}.",
      "Le week-end, on me trouve en terrasse avec un bon verre de vin.",
      "Pour moi, rire ensemble est le meilleur des débuts.",
      "J'aime voyager et découvrir de nouveaux endroits, de préférence à deux.",
      "Après une longue journée, je me détends avec de la musique et une belle conversation.",
      "Je sais ce que je veux et je n'ai pas peur de le dire.",
      "Parfois {spontanée|spontané}, toujours sincère.",
    ],
    mature: "Avec les années est venue l'assurance : je sais ce qui me plaît.",
    closers: [
      "Envoie-moi un message et on verra où ça nous mène.",
      "Envie d'en savoir plus ? Dis-moi bonjour !",
      "Fais-moi sourire et tu auras toute mon attention.",
      "Raconte-moi ta journée.",
    ],
  },
  es: {
    openers: [
      "Hola, soy %name%, de %city%.",
      "¡Saludos desde %city%!",
      "{Nueva|Nuevo} por aquí y con ganas de ver qué pasa.",
      "La vida es demasiado corta para conversaciones aburridas.",
      "Una sonrisa cálida, un gran corazón y una mirada traviesa.",
    ],
    middles: [
      "Me encantan los paseos largos, la buena comida y la mejor compañía.",
      "Mis amigos dicen que soy {sincera, juguetona y un poco descarada|sincero, juguetón y un poco descarado}.",
      "Los fines de semana me encontrarás en una terraza con una copa de vino.",
      "Para mí, reír juntos es el mejor comienzo.",
      "Me gusta viajar y descubrir sitios nuevos, mejor en compañía.",
      "Después de un día largo me relajo con música y una buena charla.",
      "Sé lo que quiero y no me da vergüenza decirlo.",
      "A veces {espontánea|espontáneo}, siempre {sincera|sincero}.",
    ],
    mature: "Con los años llegó la seguridad: sé lo que me gusta.",
    closers: [
      "Escríbeme y veamos adónde nos lleva.",
      "¿Te pica la curiosidad? ¡Salúdame!",
      "Hazme sonreír y tendrás toda mi atención.",
      "Cuéntame qué tal tu día.",
    ],
  },
  it: {
    openers: [
      "Ciao, sono %name% di %city%.",
      "Un saluto da %city%!",
      "{Nuova|Nuovo} qui e {curiosa|curioso} di vedere cosa succede.",
      "La vita è troppo breve per le conversazioni noiose.",
      "Un sorriso caldo, un grande cuore e uno sguardo un po' malizioso.",
    ],
    middles: [
      "Adoro le lunghe passeggiate, il buon cibo e la buona compagnia.",
      "Gli amici mi descrivono come {sincera, giocosa e un po' sfacciata|sincero, giocoso e un po' sfacciato}.",
      "Nel fine settimana mi trovi in terrazza con un bel bicchiere di vino.",
      "Per me ridere insieme è il miglior inizio.",
      "Amo viaggiare e scoprire posti nuovi, meglio se in due.",
      "Dopo una lunga giornata mi rilasso con la musica e una bella chiacchierata.",
      "So cosa voglio e non ho paura di dirlo.",
      "A volte {spontanea|spontaneo}, sempre {sincera|sincero}.",
    ],
    mature: "Con gli anni è arrivata la sicurezza: so cosa mi piace.",
    closers: [
      "Scrivimi e vediamo dove ci porta.",
      "Ti incuriosisco? Mandami un saluto!",
      "Fammi sorridere e avrai tutta la mia attenzione.",
      "Raccontami della tua giornata.",
    ],
  },
  pl: {
    openers: [
      "Cześć, jestem %name%. Mieszkam w mieście %city%.",
      "Serdeczne pozdrowienia dla wszystkich!",
      "Jestem tu {nowa|nowy} i {ciekawa|ciekawy}, co z tego wyniknie.",
      "Życie jest za krótkie na nudne rozmowy.",
      "Ciepły uśmiech, wielkie serce i odrobina figlarności w oczach.",
    ],
    middles: [
      "Uwielbiam długie spacery, dobre jedzenie i jeszcze lepsze towarzystwo.",
      "Przyjaciele mówią, że jestem {szczera, zabawna i trochę zadziorna|szczery, zabawny i trochę zadziorny}.",
      "W weekendy można mnie spotkać na tarasie z kieliszkiem wina.",
      "Wspólny śmiech to dla mnie najlepszy początek.",
      "Lubię podróżować i odkrywać nowe miejsca, najlepiej we dwoje.",
      "Po długim dniu odpoczywam przy muzyce i miłej rozmowie.",
      "Wiem, czego chcę, i nie boję się o tym mówić.",
      "Czasem {spontaniczna|spontaniczny}, zawsze {szczera|szczery}.",
    ],
    mature: "Z wiekiem przyszła pewność siebie: wiem, co lubię.",
    closers: [
      "Napisz do mnie, a zobaczymy, dokąd nas to zaprowadzi.",
      "Masz ochotę pogadać? Przywitaj się!",
      "Rozbaw mnie, a masz moją uwagę.",
      "Opowiedz mi o swoim dniu.",
    ],
  },
  da: {
    openers: [
      "Hej, jeg hedder %name% og bor i %city%.",
      "Kærlig hilsen fra %city%!",
      "Ny her og spændt på, hvad det bringer.",
      "Livet er for kort til kedelige samtaler.",
      "Et varmt smil, et stort hjerte og et frækt glimt i øjet.",
    ],
    middles: [
      "Jeg elsker lange gåture, god mad og endnu bedre selskab.",
      "Mine venner siger, at jeg er ærlig, legesyg og en smule fræk.",
      "I weekenden sidder jeg gerne på en terrasse med et glas vin.",
      "At grine sammen er for mig den bedste start.",
      "Jeg rejser gerne og opdager nye steder, helst sammen med nogen.",
      "Efter en lang dag slapper jeg af med musik og en god snak.",
      "Jeg ved, hvad jeg vil, og jeg siger det gerne.",
      "Nogle gange spontan, altid ærlig.",
    ],
    mature: "Med årene kom selvtilliden: jeg ved, hvad jeg kan lide.",
    closers: [
      "Skriv til mig, så ser vi, hvor det fører hen.",
      "Nysgerrig? Sig hej!",
      "Få mig til at smile, så har du min opmærksomhed.",
      "Fortæl mig om din dag.",
    ],
  },
  fi: {
    openers: [
      "Hei, olen %name% ja asun paikkakunnalla %city%.",
      "Terveisiä paikkakunnalta %city%!",
      "Uusi täällä ja utelias näkemään, mitä tästä seuraa.",
      "Elämä on liian lyhyt tylsille keskusteluille.",
      "Lämmin hymy, iso sydän ja veikeä pilke silmäkulmassa.",
    ],
    middles: [
      "Rakastan pitkiä kävelyjä, hyvää ruokaa ja vielä parempaa seuraa.",
      "Ystäväni kuvailevat minua rehelliseksi, leikkisäksi ja hieman rohkeaksi.",
      "Viikonloppuisin istun mielelläni terassilla lasillinen viiniä kädessä.",
      "Yhdessä nauraminen on minulle paras alku.",
      "Matkustan mielelläni ja löydän uusia paikkoja, mieluiten kaksin.",
      "Pitkän päivän jälkeen rentoudun musiikin ja mukavan juttutuokion parissa.",
      "Tiedän, mitä haluan, enkä pelkää sanoa sitä.",
      "Joskus spontaani, aina vilpitön.",
    ],
    mature: "Vuosien myötä tuli itsevarmuus: tiedän, mistä pidän.",
    closers: [
      "Laita viestiä, niin katsotaan, mihin tämä johtaa.",
      "Kiinnostaako? Sano hei!",
      "Saa minut hymyilemään, niin sinulla on huomioni.",
      "Kerro minulle päivästäsi.",
    ],
  },
  nb: {
    openers: [
      "Hei, jeg heter %name% og bor i %city%.",
      "Hilsen fra %city%!",
      "Ny her og spent på hva dette bringer.",
      "Livet er for kort for kjedelige samtaler.",
      "Et varmt smil, et stort hjerte og et lurt glimt i øyet.",
    ],
    middles: [
      "Jeg elsker lange turer, god mat og enda bedre selskap.",
      "Vennene mine sier at jeg er ærlig, leken og litt frekk.",
      "I helgene sitter jeg gjerne på en uteservering med et glass vin.",
      "Å le sammen er for meg den beste starten.",
      "Jeg liker å reise og oppdage nye steder, helst sammen med noen.",
      "Etter en lang dag slapper jeg av med musikk og en god prat.",
      "Jeg vet hva jeg vil, og jeg sier det gjerne.",
      "Noen ganger spontan, alltid ærlig.",
    ],
    mature: "Med årene kom selvtilliten: jeg vet hva jeg liker.",
    closers: [
      "Send meg en melding, så ser vi hvor det bærer.",
      "Nysgjerrig? Si hei!",
      "Få meg til å smile, så har du oppmerksomheten min.",
      "Fortell meg om dagen din.",
    ],
  },
  sv: {
    openers: [
      "Hej, jag heter %name% och bor i %city%.",
      "Hälsningar från %city%!",
      "Ny här och nyfiken på vad det här kan bli.",
      "Livet är för kort för tråkiga samtal.",
      "Ett varmt leende, ett stort hjärta och en busig glimt i ögat.",
    ],
    middles: [
      "Jag älskar långa promenader, god mat och ännu bättre sällskap.",
      "Mina vänner säger att jag är ärlig, lekfull och lite fräck.",
      "På helgerna sitter jag gärna på en uteservering med ett glas vin.",
      "Att skratta tillsammans är för mig den bästa starten.",
      "Jag reser gärna och upptäcker nya platser, helst tillsammans med någon.",
      "Efter en lång dag kopplar jag av med musik och ett trevligt samtal.",
      "Jag vet vad jag vill och säger det gärna.",
      "Ibland spontan, alltid ärlig.",
    ],
    mature: "Med åren kom självförtroendet: jag vet vad jag gillar.",
    closers: [
      "Skicka ett meddelande så ser vi vart det leder.",
      "Nyfiken? Säg hej!",
      "Få mig att le så har du min uppmärksamhet.",
      "Berätta om din dag.",
    ],
  },
};

/** Fills "{she|he}" alternatives and the %name% / %city% placeholders. */
export function fillTemplate(text: string, gender: "male" | "female", values: { name: string; city: string }) {
  return text
    .replace(/\{([^|{}]*)\|([^|{}]*)\}/g, (_, she: string, he: string) => (gender === "female" ? she : he))
    .replace(/%name%/g, values.name)
    .replace(/%city%/g, values.city);
}

export function composeAboutMe(
  rng: Rng,
  language: Language,
  member: { gender: "male" | "female"; name: string; city: string; age: number },
): string {
  const bank = ABOUT_ME[language];
  const sentences = [pick(rng, bank.openers), ...sample(rng, bank.middles, chance(rng, 0.5) ? 2 : 1)];
  if (member.age >= 45 && chance(rng, 0.6)) sentences.push(bank.mature);
  if (chance(rng, 0.8)) sentences.push(pick(rng, bank.closers));
  return sentences.map((s) => fillTemplate(s, member.gender, member)).join(" ");
}
