import { branch, defineTool } from "obelisk";
import { z } from "zod";

const MARKERS: Record<string, readonly string[]> = {
  en: ["the", "and", "is", "hello", "world"],
  fr: ["le", "la", "et", "est", "bonjour", "monde", "tout"],
  de: ["der", "die", "und", "ist", "hallo", "welt"],
};

const DICTIONARY: Record<string, Record<string, string>> = {
  fr: { bonjour: "hello", tout: "all", le: "the", monde: "world", est: "is", beau: "beautiful" },
  de: { hallo: "hello", welt: "world", die: "the", ist: "is", schön: "beautiful" },
};

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}]+/gu) ?? [];

/** Tools with schemas and output-path rules: `obelisk schema` turns them into the JSON Schema an LLM is held to. */
export default [
  defineTool({
    name: "detectLanguage",
    description: "Detects the language of a text (ISO 639-1 code)",
    input: z.object({ text: z.string().min(1) }),
    output: z.object({ language: z.enum(["en", "fr", "de"]), confidence: z.number().min(0).max(1) }),
    outputPath: { pattern: "^†state\\.language(\\.|$)" },
    run: ({ text }) => {
      const tokens = words(text);
      const scored = Object.entries(MARKERS).map(([language, markers]) => ({
        language: language as "en" | "fr" | "de",
        hits: tokens.filter((t) => markers.includes(t)).length,
      }));
      const best = scored.sort((a, b) => b.hits - a.hits)[0] ?? { language: "en" as const, hits: 0 };
      return { language: best.language, confidence: tokens.length === 0 ? 0 : best.hits / tokens.length };
    },
  }),
  defineTool({
    name: "isEnglish",
    description: "Routes English text one way and everything else the other way",
    input: z.object({ language: z.string() }),
    output: z.string(),
    outcomes: ["english", "other"],
    run: ({ language }) => (language === "en" ? language : branch("other", language)),
  }),
  defineTool({
    name: "translateText",
    description: "Translates a text into English, word by word",
    input: z.object({ text: z.string(), from: z.enum(["fr", "de"]) }),
    output: z.object({ text: z.string(), from: z.string() }),
    outputPath: { const: "†state.translation" },
    run: ({ text, from }) => ({
      from,
      text: words(text)
        .map((w) => DICTIONARY[from]?.[w] ?? w)
        .join(" "),
    }),
  }),
];
