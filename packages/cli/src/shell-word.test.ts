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
});
