// A tools module that writes to process.stdout itself (not through console), on import and while it runs:
// json output must still be one document on stdout.
process.stdout.write("raw write on import\n");

export default {
  scribble: {
    description: "Writes to stdout in several ways, then returns its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: async ({ text }) => {
      process.stdout.write(`raw write says ${text}\n`);
      process.stdout.write("raw write with an encoding\n", "utf8");
      await new Promise((done) => process.stdout.write(Buffer.from("raw write of a buffer\n"), done));
      return { text };
    },
  },
};
