import { describe, expect, it } from "vitest";
import { isValidCallId } from "./call-id.js";

describe("isValidCallId", () => {
  it.each(["a", "_x", "fetchUser", "step-2", "A_b-9"])("accepts %j", (id) => {
    expect(isValidCallId(id)).toBe(true);
  });
  it.each(["", "1a", "-a", "a$1", "$a", "a.b", "a b", "ä", "a\n"])("rejects %j", (id) => {
    expect(isValidCallId(id)).toBe(false);
  });
});
