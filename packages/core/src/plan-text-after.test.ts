import { describe, expect, it } from "vitest";
import type { Diagnostic } from "./diagnostic.js";
import type { JsonValue } from "./json-value.js";
import { ObeliskError } from "./obelisk-error.js";
import { callsFromText, createPlanTextStream, type PlanTextEnd } from "./plan-text-stream.js";

const first = '[{"_tool":"a","n":1}]';
const second = '[{"_tool":"b","n":2}]';
const fence = "```";

/** Feeds `text` in chunks of `size`: the calls and the end (the same for every size, checked). */
function read(text: string): { calls: JsonValue[]; end: PlanTextEnd } {
  let seen: { calls: JsonValue[]; end: PlanTextEnd } | undefined;
  for (const size of [1, 2, 7, text.length]) {
    const stream = createPlanTextStream();
    const calls: JsonValue[] = [];
    for (let at = 0; at < text.length; at += size) calls.push(...stream.push(text.slice(at, at + size)));
    const outcome = { calls, end: stream.end() };
    if (seen === undefined) seen = outcome;
    else expect(outcome, `chunks of ${size}`).toEqual(seen);
  }
  return seen as { calls: JsonValue[]; end: PlanTextEnd };
}

const secondPlanWarning = {
  code: "STREAM_SECOND_PLAN",
  severity: "warning",
  pointer: "",
  hint: "send one plan, or merge the calls into one list",
};

describe("the text after the plan", () => {
  it("two arrays back to back: the first plan's calls, and a STREAM_SECOND_PLAN warning that names where the second starts", () => {
    const text = `${first}\n\nAnd then:\n${second}`;
    const { calls, end } = read(text);
    expect(calls).toEqual([{ _tool: "a", n: 1 }]);
    expect(end.after).toEqual({
      offset: first.length + 2,
      line: 3,
      column: 1,
      length: text.length - first.length - 2,
      excerpt: `And then:\n${second}`,
      secondPlan: { offset: text.indexOf(second), line: 4, column: 1, excerpt: second },
    });
    expect(end.warnings).toEqual([expect.objectContaining(secondPlanWarning)]);
    expect(end.warnings[0]?.message).toBe(
      `the text holds a second plan after the first, at line 4, column 1: \`${second}\`; it was skipped, only the first plan's calls were read`,
    );
    // glued to the first, on the same line: the first thing after the plan
    const glued = read(`${first}${second}`).end;
    expect(glued.after?.secondPlan).toEqual({ offset: first.length, line: 1, column: 22, excerpt: second });
    expect(glued.warnings).toHaveLength(1);
  });

  it("a fenced plan followed by a second fenced block: the first one's closing fence is not text, the second plan is", () => {
    const document = '{ "type": "plan", "plan": [{"_tool":"b"}] }';
    for (const newline of ["\n", "\r\n"]) {
      const lines = ["Here:", `${fence}json`, first, fence, "", `${fence}json`, document, fence];
      const text = lines.join(newline);
      const { calls, end } = read(text);
      expect(calls).toEqual([{ _tool: "a", n: 1 }]);
      const secondFence = text.lastIndexOf(`${fence}json`);
      expect(end.after).toMatchObject({ offset: secondFence, line: 6, column: 1 });
      expect(end.after?.excerpt).toBe(lines.slice(5).join(newline));
      expect(end.after?.secondPlan).toEqual({
        offset: text.indexOf(document),
        line: 7,
        column: 1,
        excerpt: `${document}${newline}${fence}`,
      });
      expect(end.warnings).toEqual([expect.objectContaining(secondPlanWarning)]);
    }
    // a one-call object, indented, on its own line
    const call = read(`${first}\nAlso:\n  {"_tool": "c"}`).end;
    expect(call.after?.secondPlan).toMatchObject({ line: 3, column: 3, excerpt: '{"_tool": "c"}' });
  });

  it('prose after the plan, with brackets in its sentences ("[step 2]", "{user}", "[{…}]" within a line) or a line starting "[step 3]", is told in after but is no second plan', () => {
    const prose =
      'It does [step 2] for {user}, as in [{"_tool":"a"}] above.\n[step 3] comes next; {name} too.';
    const text = `${fence}json\n${first}\n${fence}\n${prose}`;
    const { end } = read(text);
    expect(end.after).toEqual({
      offset: text.indexOf("It does"),
      line: 4,
      column: 1,
      length: prose.length,
      excerpt: `${prose.slice(0, 80)}…`,
    });
    expect(end.warnings).toEqual([]);
    // "Let me know if…" right after the closing bracket
    expect(read(`${first} Let me know if [this] works.`).end).toEqual({
      form: "array",
      calls: 1,
      members: {},
      after: { offset: 22, line: 1, column: 23, length: 28, excerpt: "Let me know if [this] works." },
      warnings: [],
    });
  });

  it("a closing fence alone, or only blanks, after the plan: nothing to tell", () => {
    const nothing = { form: "array", calls: 1, members: {}, warnings: [] };
    for (const tail of [
      `\n${fence}`,
      `\n${fence}\n`,
      `\r\n${fence}  \r\n\r\n`,
      `\n${fence}\`\n \t`,
      "",
      "\n \t\r\n  ",
    ])
      expect(read(`${fence}json\n${first}${tail}`).end, JSON.stringify(tail)).toEqual(nothing);
    expect(read(`${first}\n\n   `).end).toEqual(nothing);
    // a second closing fence, or a fence line with more on it, is text after the plan
    expect(read(`${first}\n${fence}\n${fence}`).end.after).toMatchObject({ line: 3, excerpt: fence });
    expect(read(`${first}\n${fence} x`).end.after).toMatchObject({ line: 2, excerpt: `${fence} x` });
    expect(read(`${first}\n\`\``).end.after).toMatchObject({ line: 2, excerpt: "``" });
  });

  it("keeps only a short excerpt of a megabyte of text after the plan, and its length", () => {
    const prose = `${"x".repeat(1_000_000)}\n`;
    const tail = "z".repeat(1000);
    const text = `${first}\n${prose}${second}${tail}`;
    const stream = createPlanTextStream();
    for (let at = 0; at < text.length; at += 4096) stream.push(text.slice(at, at + 4096));
    const { after, warnings } = stream.end();
    expect(after).toEqual({
      offset: first.length + 1,
      line: 2,
      column: 1,
      length: prose.length + second.length + tail.length,
      excerpt: `${"x".repeat(80)}…`,
      secondPlan: {
        offset: first.length + 1 + prose.length,
        line: 3,
        column: 1,
        excerpt: `${(second + tail).slice(0, 80)}…`,
      },
    });
    expect(warnings).toHaveLength(1);
    // an excerpt cut inside a surrogate pair leaves the half out
    const emoji = read(`${first}\n${"y".repeat(79)}\ud83d\ude00 more`).end.after;
    expect(emoji?.excerpt).toBe(`${"y".repeat(79)}…`);
  });

  it("onWarning gets each warning once, at end (for a for await over callsFromText); not for one plan", async () => {
    const got: Diagnostic[] = [];
    const calls: JsonValue[] = [];
    for await (const call of callsFromText([first, "\n", second], {
      onWarning: (warning) => got.push(warning),
    }))
      calls.push(call);
    expect(calls).toEqual([{ _tool: "a", n: 1 }]);
    expect(got).toEqual([expect.objectContaining(secondPlanWarning)]);
    const stream = createPlanTextStream({ onWarning: (warning) => got.push(warning) });
    stream.push(`${first}\n${second}`);
    stream.end();
    stream.end();
    expect(got).toHaveLength(2);
    const single = createPlanTextStream({ onWarning: (warning) => got.push(warning) });
    single.push(`${first}\nDone.`);
    single.end();
    expect(got).toHaveLength(2);
  });

  it("an onWarning that is not a function is USAGE", () => {
    const wrong = () => createPlanTextStream({ onWarning: [] as unknown as () => void });
    expect(wrong).toThrow(ObeliskError);
    expect(wrong).toThrow(
      expect.objectContaining({ code: "USAGE", message: "onWarning must be a function" }),
    );
  });
});
