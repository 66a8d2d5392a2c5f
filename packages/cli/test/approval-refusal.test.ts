import { describe, expect, it } from "vitest";
import { example, obelisk, tempDir } from "./cli-harness.js";

// The payments example's refund takes its approval as an object ({ "by": "ops" }): a person who refuses
// with `--value false` (what the waiting run's own output suggests) or `null` must get the call rejected,
// not "plan is invalid" with REF_TYPE_MISMATCH (decision 0048, amended at stop 39).
describe("obelisk run after an approval answered false or null", () => {
  it("ends the refund rejected with the refusal (exit 0); validate says the plan is valid", async () => {
    const cwd = tempDir();
    const tools = ["--tools", example("payments", "tools.ts"), "--thread", "rej2"];
    const paid = await obelisk(
      ["run", example("payments", "plan.json"), ...tools, "--input", example("payments", "input-ok.json")],
      cwd,
    );
    expect(paid.code).toBe(0);
    const refund = ["run", example("payments", "refund.json"), ...tools];
    for (const answer of ["false", "null"]) {
      const set = ["state", "set", "--ref", "†state.approvals.refund", "--value", answer, "--thread", "rej2"];
      expect((await obelisk(set, cwd)).code).toBe(0);
      const validated = await obelisk(["validate", example("payments", "refund.json"), ...tools], cwd);
      expect(validated.stdout).toMatch(/^✓ plan is valid$/m);
      expect(validated.code).toBe(0);
      const refused = await obelisk(refund, cwd);
      expect(refused.stderr).not.toContain("REF_TYPE_MISMATCH");
      expect(refused.stdout).toMatch(
        new RegExp(
          `^ {2}refund +issueRefund +⊗ rejected .*approval †state\\.approvals\\.refund is ${answer}: refused, so the call did not run`,
          "m",
        ),
      );
      expect(refused.stdout).toMatch(/^Run succeeded in .* — 1 rejected$/m);
      expect(refused.code).toBe(0);
    }
  });
});
