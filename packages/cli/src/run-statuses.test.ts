import { RUN_STATUSES as ENGINE_RUN_STATUSES } from "obelisk";
import { expect, it } from "vitest";
import { RUN_STATUSES } from "./run-statuses.js";

it("lists the engine's run statuses in the engine's order", () => {
  expect(RUN_STATUSES).toEqual(ENGINE_RUN_STATUSES);
});
