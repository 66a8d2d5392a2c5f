import { describe, expect, it } from "vitest";
import { displayBlock, displaySource, displayText, jsonText } from "./display-text.js";

describe("displayText (review-cli 11)", () => {
  it("escapes newlines, tabs and terminal escape sequences, and keeps other text", () => {
    expect(displayText("sync\nmultiline\x1b[31mred\ttab\r")).toBe("sync\\nmultiline\\x1b[31mred\\ttab\\r");
    expect(displayText("\u0000\u007f\u009b")).toBe("\\x00\\x7f\\x9b");
    expect(displayText("plain — ünïcode ✓ 漢字")).toBe("plain — ünïcode ✓ 漢字");
  });

  it("escapes bidi controls and the line and paragraph separators (s35 security review L2)", () => {
    expect(displayText("a\u202eevil\u2028X\u2029\u2066\u2069\u200e\u200f\u202a")).toBe(
      "a\\u202eevil\\u2028X\\u2029\\u2066\\u2069\\u200e\\u200f\\u202a",
    );
    // the letters that read right to left stay: only the controls that reorder text are escaped
    expect(displayText("שלום مرحبا")).toBe("שלום مرحبا");
  });
});

describe("displayBlock, jsonText and displaySource (s35 security review M2)", () => {
  it("escapes the Arabic letter mark and invisible characters, keeps the joiners (s41 security review #3)", () => {
    const hidden = "a\u061cb\u200bc\u2060d\u2064e\ufefff\ufff9g";
    expect(displayText(hidden)).toBe("a\\u061cb\\u200bc\\u2060d\\u2064e\\ufefff\\ufff9g");
    expect(displayBlock(hidden)).toBe(displayText(hidden));
    expect(jsonText({ [hidden]: 1 })).not.toMatch(/[\u061c\u200b\u2060-\u2064\ufeff\ufff9]/);
    expect(displayText("👨\u200d👩 \u200c")).toBe("👨\u200d👩 \u200c");
  });

  it("displayBlock keeps line feeds and tabs and escapes the rest", () => {
    expect(displayBlock("a\n\tb\x1b]0;T\x07\r\u202e")).toBe("a\n\tb\\x1b]0;T\\x07\\r\\u202e");
  });

  it("jsonText is the same JSON value with C1, bidi and separators written \\u", () => {
    const value = { "k\u202e": "\x1b\x9b\u2028\x7f ✓" };
    const text = jsonText(value);
    expect(text).not.toMatch(/[\u007f-\u009f\u202e\u2028]/);
    expect(text).toContain("\\u001b\\u009b\\u2028\\u007f ✓");
    expect(JSON.parse(text)).toEqual(value);
  });

  it("displaySource keeps line ends and tabs and maps each offset into the escaped text", () => {
    const { text, offsets } = displaySource('{"\x1b":\r\n\t"\u202ex"}');
    expect(text).toBe('{"\\x1b":\r\n\t"\\u202ex"}');
    expect([...offsets]).toEqual([0, 1, 2, 6, 7, 8, 9, 10, 11, 12, 18, 19, 20, 21]);
  });
});
