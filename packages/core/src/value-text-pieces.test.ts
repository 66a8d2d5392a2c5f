import { describe, expect, it } from "vitest";
import { createPlanTextStream } from "./plan-text-stream.js";
import { ValueTextPieces } from "./value-text-pieces.js";

describe("ValueTextPieces", () => {
  it("holds one string per 256 characters however small the pieces (a model's one-character tokens), and gives the text back whole", () => {
    const pieces = new ValueTextPieces();
    let expected = "";
    for (let index = 0; index < 100_000; index++) {
      const piece = index % 7 === 0 ? "" : String.fromCharCode(0x2020 + (index % 3));
      pieces.push(piece);
      expected += piece;
    }
    expect(pieces.strings).toBeLessThanOrEqual(Math.ceil(expected.length / 256) + 255);
    expect(pieces.text("!")).toBe(`${expected}!`);
    pieces.clear();
    expect(pieces.strings).toBe(0);
    expect(pieces.text("tail")).toBe("tail");
  });

  it("a value streamed one character at a time reads as a whole", () => {
    const text = JSON.stringify([{ _tool: "a", s: '†é😀\\"'.repeat(2_000) }]);
    const stream = createPlanTextStream();
    const calls = [];
    for (const character of text) calls.push(...stream.push(character));
    expect(calls).toEqual(JSON.parse(text));
  });
});
