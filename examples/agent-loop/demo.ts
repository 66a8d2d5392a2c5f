import { createEngine } from "obelisk";
import { runAgent } from "./agent-loop.js";
import { scriptedModel } from "./scripted-model.js";
import tools from "./tools.js";

// An agent loop with a scripted model: `npx tsx examples/agent-loop/demo.ts` (after `pnpm build`).
// Swap scriptedModel() for a real provider: README, "A real model".
const engine = createEngine({ tools });
const { answer, messages } = await runAgent({
  engine,
  threadId: "chat-1",
  model: scriptedModel(),
  question: "What is the weather where user u1 lives?",
});
for (const message of messages) {
  if (message.role === "system")
    console.log(`system: the plan-language primer (${message.content.length} characters)`);
  else if (message.role === "tool") console.log(`tool ${message.name} → ${message.content.slice(0, 300)}`);
  else if (message.role === "assistant" && message.toolCalls.length > 0)
    for (const call of message.toolCalls)
      console.log(`model calls ${call.name} ${JSON.stringify(call.arguments)}`);
  else console.log(`${message.role}: ${message.content}`);
}
console.log(`\nanswer: ${answer}`);
await engine.close();
