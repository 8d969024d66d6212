import type { BookLanguage } from "../../shared/books.ts";

/**
 * Words the seeded catalog is written with, per language, accents included, so searches meet what
 * real titles hold ("cafe" must find "café", "manana" "Mañana"). Nouns carry their gender in
 * Spanish and French so adjectives agree.
 */

export type Gender = "m" | "f";

export interface Noun {
  word: string;
  gender: Gender;
}

export interface Adjective {
  m: string;
  f: string;
}

export interface LanguageWords {
  nouns: Noun[];
  adjectives: Adjective[];
  places: string[];
  verbs: string[];
  /** The articles a noun of each gender takes: "el"/"la", "un"/"una". */
  definite: Record<Gender, string>;
  indefinite: Record<Gender, string>;
  /**
   * Title and description shapes. {noun} and {noun2} are bare nouns, {theNoun}/{aNoun} take their
   * article ({TheNoun} capitalized), {adjective} agrees with {noun}; {place} and {verb} as they are.
   */
  titleShapes: string[];
  sentenceShapes: string[];
  firstNames: string[];
  lastNames: string[];
}

const same = (word: string): Adjective => ({ m: word, f: word });
const nounsOf = (gender: Gender, words: string[]): Noun[] => words.map((word) => ({ word, gender }));

const english: LanguageWords = {
  nouns: nounsOf("m", [
    "garden", "lighthouse", "river", "letter", "winter", "harbor", "ledger", "orchard", "island", "mirror",
    "train", "violin", "map", "kitchen", "market", "storm", "library", "bridge", "forest", "window",
    "coffee", "promise", "engine", "compass", "festival", "silence", "machine", "border", "garage", "startup",
  ]),
  adjectives: ["quiet", "last", "hidden", "northern", "little", "forgotten", "silver", "broken", "secret", "endless", "early", "golden", "honest", "restless", "distant"].map(same),
  places: ["London", "Dublin", "Boston", "Vancouver", "Edinburgh", "Sydney", "Chicago", "Cape Town", "Seattle", "Bristol"],
  verbs: ["discovers", "leaves", "rebuilds", "remembers", "crosses", "inherits", "searches for", "guards", "sells", "paints"],
  definite: { m: "the", f: "the" },
  indefinite: { m: "a", f: "a" },
  titleShapes: ["The {adjective} {noun}", "{TheNoun} of {place}", "{ANoun} for {place}", "{TheNoun} and {theNoun2}", "Notes on {theNoun}"],
  sentenceShapes: [
    "A story about {aNoun} in {place}, and the people who keep it.",
    "One summer, a young woman {verb} {theNoun} her family had lost.",
    "Told through letters, it follows an old man who {verb} the {adjective} {noun}.",
    "A practical guide to {theNoun}, with examples from {place}.",
    "Nobody in {place} expected {theNoun} to change everything.",
    "Part memoir, part history of the {adjective} {noun}.",
  ],
  firstNames: ["Emma", "Oliver", "Grace", "Henry", "Chloe", "Jack", "Amelia", "Noah", "Ruth", "Samuel", "Zoe", "Arthur"],
  lastNames: ["Walker", "Bennett", "Hughes", "Carter", "O'Brien", "Murphy", "Foster", "Reid", "Clarke", "Turner", "Ward", "Hayes"],
};

const spanish: LanguageWords = {
  nouns: [
    ...nounsOf("m", ["café", "corazón", "jardín", "árbol", "camino", "invierno", "faro", "río", "silencio", "viaje", "mercado", "espejo", "puerto", "sueño", "león"]),
    ...nounsOf("f", ["canción", "mañana", "estación", "línea", "música", "ciudad", "isla", "carta", "memoria", "frontera", "cocina", "tormenta", "ventana", "lección", "herencia"]),
  ],
  adjectives: [
    { m: "último", f: "última" },
    { m: "pequeño", f: "pequeña" },
    { m: "escondido", f: "escondida" },
    { m: "olvidado", f: "olvidada" },
    { m: "silencioso", f: "silenciosa" },
    { m: "rápido", f: "rápida" },
    { m: "antiguo", f: "antigua" },
    { m: "dorado", f: "dorada" },
    same("azul"),
    same("feliz"),
    same("difícil"),
    same("inútil"),
  ],
  places: ["Sevilla", "Bogotá", "Córdoba", "Málaga", "Cádiz", "Mérida", "Asunción", "Cancún", "Valparaíso", "San Sebastián"],
  verbs: ["descubre", "abandona", "reconstruye", "recuerda", "cruza", "hereda", "busca", "guarda", "vende", "pinta"],
  definite: { m: "el", f: "la" },
  indefinite: { m: "un", f: "una" },
  titleShapes: ["{TheNoun} {adjective}", "{TheNoun} de {place}", "{ANoun} en {place}", "{TheNoun} y {theNoun2}", "Cuaderno de {place}"],
  sentenceShapes: [
    "Una historia sobre {aNoun} {adjective} en {place}.",
    "Un verano, una joven {verb} {theNoun} que su familia había perdido.",
    "Contada en cartas, sigue a un anciano que {verb} {aNoun} {adjective}.",
    "Una guía práctica sobre {theNoun}, con ejemplos de {place}.",
    "Nadie en {place} esperaba que {theNoun} lo cambiara todo.",
    "Mitad memoria, mitad ficción: la vida de una familia en {place}.",
  ],
  firstNames: ["Lucía", "Martín", "Sofía", "Mateo", "Valentina", "José", "Inés", "Andrés", "Ramón", "Mónica", "Raúl", "Begoña"],
  lastNames: ["García", "Fernández", "Martínez", "López", "Sánchez", "Pérez", "Gómez", "Núñez", "Ibáñez", "Muñoz", "Ordóñez", "Peña"],
};

const french: LanguageWords = {
  nouns: [
    ...nounsOf("m", ["café", "jardin", "château", "rêve", "été", "hiver", "phare", "fleuve", "silence", "voyage", "marché", "miroir", "port", "cœur", "théâtre"]),
    ...nounsOf("f", ["forêt", "fenêtre", "mémoire", "étoile", "île", "chanson", "lettre", "frontière", "cuisine", "tempête", "saison", "rivière", "gare", "leçon", "bibliothèque"]),
  ],
  adjectives: [
    { m: "dernier", f: "dernière" },
    { m: "petit", f: "petite" },
    { m: "caché", f: "cachée" },
    { m: "oublié", f: "oubliée" },
    { m: "secret", f: "secrète" },
    { m: "léger", f: "légère" },
    { m: "ancien", f: "ancienne" },
    { m: "doré", f: "dorée" },
    same("tranquille"),
    same("fidèle"),
    same("étrange"),
    same("éphémère"),
  ],
  places: ["Paris", "Lyon", "Québec", "Genève", "Montréal", "Nîmes", "Besançon", "Orléans", "Saint-Étienne", "Bruxelles"],
  verbs: ["retrouve", "découvre", "quitte", "reconstruit", "traverse", "cherche", "garde", "vend", "peint", "répare"],
  definite: { m: "le", f: "la" },
  indefinite: { m: "un", f: "une" },
  titleShapes: ["{TheNoun} {adjective}", "{TheNoun} de {place}", "{ANoun} à {place}", "{TheNoun} et {theNoun2}", "Carnets de {place}"],
  sentenceShapes: [
    "Une histoire sur {aNoun} {adjective} à {place}.",
    "Un été, une jeune femme {verb} {theNoun} que sa famille avait perdu.",
    "Racontée en lettres, elle suit un vieil homme qui {verb} {aNoun} {adjective}.",
    "Un guide pratique sur {theNoun}, avec des exemples de {place}.",
    "Personne à {place} ne s'attendait à ce que {theNoun} change tout.",
    "Mi-mémoires, mi-roman : la vie d'une famille à {place}.",
  ],
  firstNames: ["Hélène", "Léa", "Chloé", "Théo", "Zoé", "Jérôme", "Amélie", "François", "Noémie", "Benoît", "Gaël", "Anaïs"],
  lastNames: ["Dupont", "Moreau", "Lefèvre", "Girard", "Bérubé", "Fournier", "Rousseau", "Lemaître", "Gauthier", "Brûlé", "Côté", "Mercier"],
};

export const WORDS: Record<BookLanguage, LanguageWords> = { en: english, es: spanish, fr: french };
