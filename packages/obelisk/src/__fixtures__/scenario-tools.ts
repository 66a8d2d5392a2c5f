import { branch, defineTool, type ToolDefinition } from "@obelisk/compiler";
import { z } from "zod";

/** Invocation counts by tool name. */
export type Counts = Record<string, number>;

/** The tools of the SPEC scenarios, counting invocations. */
export function scenarioTools(counts: Counts): ToolDefinition[] {
  const count = (name: string): void => {
    counts[name] = (counts[name] ?? 0) + 1;
  };
  return [
    defineTool({
      name: "greetUser",
      input: z.object({ name: z.string() }),
      run: ({ name }) => {
        count("greetUser");
        return `Hello ${name}`;
      },
    }),
    defineTool({
      name: "verifyUser",
      input: z.object({ userId: z.string() }),
      outcomes: ["verified", "rejected", "failed"],
      run: ({ userId }) => {
        count("verifyUser");
        if (userId === "boom") throw Object.assign(new Error("verifier down"), { code: "E_DOWN" });
        if (userId === "bad") return branch("rejected", { userId, reason: "unknown user" });
        return { userId, ok: true };
      },
    }),
    defineTool({
      name: "use",
      input: z.object({ value: z.unknown() }),
      run: ({ value }) => {
        count("use");
        return { used: value ?? null };
      },
    }),
    defineTool({
      name: "generateSummary",
      input: z.object({ text: z.string() }),
      run: ({ text }) => {
        count("generateSummary");
        return `summary of ${text}`;
      },
    }),
    defineTool({
      name: "detectLanguage",
      input: z.object({ text: z.string() }),
      run: ({ text }) => {
        count("detectLanguage");
        return text.startsWith("Bonjour") ? "fr" : "en";
      },
    }),
    defineTool({
      name: "isEnglish",
      input: z.object({ language: z.string() }),
      run: ({ language }) => {
        count("isEnglish");
        return language === "en";
      },
    }),
    defineTool({
      name: "translateText",
      input: z.object({ text: z.string(), english: z.boolean() }),
      run: ({ text, english }) => {
        count("translateText");
        return english ? text : `EN(${text})`;
      },
    }),
    defineTool({
      name: "processPayment",
      input: z.object({ amount: z.number() }),
      run: () => {
        count("processPayment");
        throw Object.assign(new Error("card declined"), { code: "DECLINED" });
      },
    }),
    defineTool({
      name: "confirmOrder",
      input: z.object({ payment: z.unknown() }),
      run: () => {
        count("confirmOrder");
        return "confirmed";
      },
    }),
  ];
}
