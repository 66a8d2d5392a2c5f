import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { shellWord } from "./shell-word.js";

describe("shellWord (review-cli2 6)", () => {
  it("leaves plain words, quotes the others, and escapes control characters so bash reads the same word", () => {
    expect(shellWord("default")).toBe("default");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    const tricky = "x\x1b[31mRED\nnl 'q' \\b";
    const quoted = shellWord(tricky);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserts no control character is left
    expect(quoted).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(execFileSync("bash", ["-c", `printf %s ${quoted}`], { encoding: "utf8" })).toBe(tricky);
  });

  it("writes bidi controls and line separators escaped, and bash reads the same word (s35 review L2)", () => {
    const tricky = "t\u202eevil\u2028x\u2066";
    const quoted = shellWord(tricky);
    expect(quoted).toBe("$'t\\u202eevil\\u2028x\\u2066'");
    expect(execFileSync("bash", ["-c", `printf %s ${quoted}`], { encoding: "utf8" })).toBe(tricky);
  });
});
