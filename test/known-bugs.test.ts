import { parsePlanText } from "@obelisk/core";
import { describe, expect, it } from "vitest";

/*
 * Focused tests for bugs found by the reliability suites and not yet fixed in their package (the owners
 * were not reachable from this session). Each is `it.fails`: when the bug is fixed the test starts to pass,
 * vitest reports it, and the `.fails` (and any exemption named in the comment) must be removed.
 * See docs/reliability.md, "Bugs found".
 */
describe("known bugs", () => {
});
