import { defineTool } from "obelisk";
import { z } from "zod";

const CORPUS = [
  { id: "doc-1", title: "Scheduling DAGs without supersteps", tags: ["dag", "scheduling"] },
  { id: "doc-2", title: "Durable state for agent loops", tags: ["state", "agents"] },
  { id: "doc-3", title: "References instead of copied data", tags: ["references", "agents"] },
  { id: "doc-4", title: "Critical-path scheduling in practice", tags: ["scheduling"] },
  { id: "doc-5", title: "Approval gates for risky tools", tags: ["agents", "safety"] },
];

const searchResult = z.object({ query: z.string(), hits: z.array(z.string()) });

/** Tools of the fan-out / fan-in example. */
export default [
  defineTool({
    name: "summarize",
    description: "Summarises a text in one sentence (first sentence, shortened)",
    input: z.object({ text: z.string() }),
    output: z.object({ summary: z.string(), words: z.number() }),
    run: ({ text }) => ({
      summary: `${text.split(".")[0]?.slice(0, 80) ?? ""}.`,
      words: text.split(/\s+/).length,
    }),
  }),
  defineTool({
    name: "search",
    description: "Searches the document corpus by tag",
    input: z.object({ query: z.string() }),
    output: searchResult,
    run: ({ query }) => ({ query, hits: CORPUS.filter((d) => d.tags.includes(query)).map((d) => d.id) }),
  }),
  defineTool({
    name: "rankResults",
    description: "Ranks documents by how many searches found them",
    input: z.object({ results: z.array(searchResult) }),
    output: z.array(z.object({ id: z.string(), score: z.number() })),
    run: ({ results }) => {
      const scores = new Map<string, number>();
      for (const result of results) for (const id of result.hits) scores.set(id, (scores.get(id) ?? 0) + 1);
      return [...scores]
        .map(([id, score]) => ({ id, score }))
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    },
  }),
];
