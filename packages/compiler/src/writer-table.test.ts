import { describe, expect, it } from "vitest";
import type { CallOperand, WriterLink } from "./compiled-plan.js";
import { writerTable } from "./writer-table.js";

const link = (callId: string): WriterLink => ({
  callId: callId as WriterLink["callId"],
  position: -1,
  alternatives: [0],
  conditional: false,
});

describe("writerTable", () => {
  for (const count of [0, 1, 2, 3, 8, 9, 20]) {
    it(`${count} operands: looks up, reports size and iterates like a Map, in operand order`, () => {
      const texts = Array.from({ length: count }, (_, i) => `†state.k${i}`);
      const groups: CallOperand[] = texts.map((text, i) => ({
        reference: { kind: "state", path: [`k${i}`], text },
        links: [link(`w${i}`)],
      }));
      // every operand but the first read twice: each is listed once, in the order first read
      const table = writerTable([...groups, ...groups.slice(1)], groups);
      const expected = new Map(texts.map((text, i) => [text, groups[i]?.links]));
      expect(table.size).toBe(count);
      for (const [i, text] of texts.entries()) {
        // An equal string that is not the same one finds the entry too.
        const copy = [...text].join("");
        expect(table.get(copy)).toBe(groups[i]?.links);
        expect(table.has(copy)).toBe(true);
      }
      expect(table.get("†state.other")).toBeUndefined();
      expect(table.has("†state.other")).toBe(false);
      expect([...table]).toEqual([...expected]);
      expect([...table.keys()]).toEqual(texts);
      expect([...table.values()]).toEqual(groups.map((group) => group.links));
      expect([...table.entries()]).toEqual([...expected.entries()]);
      const seen: string[] = [];
      table.forEach((links, text, map) => {
        expect(map).toBe(table);
        expect(links).toBe(expected.get(text));
        seen.push(text);
      });
      expect(seen).toEqual(texts);
    });
  }
});
