import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.js";

describe("isoTime", () => {
  it("gives Date's ISO text for alternating, repeated and new times", () => {
    const times = [0, 1, 0, 1, 1, 2, 1_700_000_000_123, 2, 1_700_000_000_123, -1];
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("gives Date's text for every time of a day formatted from the cached date, across day and year ends", () => {
    const starts = [
      1_700_000_000_123,
      Date.UTC(2024, 11, 31, 23, 59, 58, 999),
      -86_400_000 - 7,
      -62_198_755_200_000,
    ];
    for (const start of starts)
      for (let ms = start; ms < start + 5_000_000; ms += 4_999)
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    for (const ms of [
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 2, 1),
      0.5,
      1.999,
      -0.5,
      -1.5,
      1_700_000_000_123.7,
    ])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("gives Date's text outside years 0000–9999 and throws as Date does for an invalid time", () => {
    for (const ms of [253_402_300_799_999, 253_402_300_800_000, 253_402_300_800_001, -62_167_219_200_001])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    // twice: a time that failed to format is not remembered (it used to be, with the last time's text)
    for (let round = 0; round < 2; round++) expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
