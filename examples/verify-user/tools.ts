import { branch, defineTool } from "obelisk";
import { z } from "zod";

const DIRECTORY: Record<string, { name: string; status: "active" | "suspended" }> = {
  "u-1": { name: "Ada Lovelace", status: "active" },
  "u-2": { name: "Charles Babbage", status: "suspended" },
};

/** Tools of the branching example: verifyUser has two outcomes, and the next calls follow the one taken. */
export default [
  defineTool({
    name: "verifyUser",
    description: "Checks a user id against the directory",
    input: z.object({ userId: z.string() }),
    outcomes: ["verified", "failed"],
    run: ({ userId }) => {
      if (userId === "u-error") {
        throw Object.assign(new Error("the user directory is unreachable"), { code: "DIRECTORY_DOWN" });
      }
      const user = DIRECTORY[userId];
      if (user === undefined) return branch("failed", { userId, reason: "unknown user" });
      if (user.status !== "active") return branch("failed", { userId, reason: `account ${user.status}` });
      return { userId, name: user.name };
    },
  }),
  defineTool({
    name: "sendWelcome",
    description: "Welcomes a verified user",
    input: z.object({ user: z.object({ userId: z.string(), name: z.string() }) }),
    run: ({ user }) => ({ to: user.userId, text: `Welcome back, ${user.name}.` }),
  }),
  defineTool({
    name: "openTicket",
    description: "Opens a support ticket for a failed verification",
    input: z.object({ problem: z.object({}).loose() }),
    run: ({ problem }) => ({ queue: "identity", problem }),
  }),
];
