import { describe, expect, it } from "vitest";
import { displayText } from "./display-text.js";

describe("displayText (review-cli 11)", () => {
  it("escapes newlines, tabs and terminal escape sequences, and keeps other text", () => {
    expect(displayText("sync\nmultiline\x1b[31mred\ttab\r")).toBe("sync\\nmultiline\\x1b[31mred\\ttab\\r");
    expect(displayText("\u0000\u007f\u009b")).toBe("\\x00\\x7f\\x9b");
    expect(displayText("plain — ünïcode ✓ 漢字")).toBe("plain — ünïcode ✓ 漢字");
  });
});
