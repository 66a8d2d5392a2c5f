import { describe, expect, it } from "vitest";
import { createSha256, sha256Hex, sha256HexPortable } from "./sha256-hex.js";

describe("sha256Hex", () => {
  it("gives the known digest of the empty string and of 'abc'", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("the native and portable paths agree, including non-ASCII and lone surrogates", () => {
    for (const text of ["†state.x", "é日本語😀", "\ud800x", "x".repeat(100_000)])
      expect(sha256Hex(text)).toBe(sha256HexPortable(text));
  });
});

describe("createSha256", () => {
  it("gives sha256Hex of the concatenated pieces", () => {
    const pieces = ["", "abc", "†state.x", "é日本語😀", "x".repeat(70_000)];
    const stream = createSha256();
    for (const piece of pieces) stream.update(piece);
    expect(stream.digestHex()).toBe(sha256Hex(pieces.join("")));
  });
});
