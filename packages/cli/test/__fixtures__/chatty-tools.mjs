// A tools module that logs on import and while it runs (json output must stay one document).
console.log("chatty tools module loaded");

export default {
  chat: {
    description: "Logs, then returns its text",
    input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    run: ({ text }) => {
      console.log(`chat says ${text}`);
      console.info("info line");
      return { text };
    },
  },
};
