// Tools for `obelisk schema --strict`: `tag` takes an open object (any keys), which strict mode cannot say.
export default [
  {
    name: "lookup",
    input: {
      type: "object",
      properties: { id: { type: "string" }, verbose: { type: "boolean" } },
      required: ["id"],
    },
    run: ({ id }) => ({ id }),
  },
  {
    name: "tag",
    input: {
      type: "object",
      properties: { labels: { type: "object", additionalProperties: { type: "string" } } },
      required: ["labels"],
    },
    run: ({ labels }) => Object.keys(labels).length,
  },
];
