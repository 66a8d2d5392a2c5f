import type { JsonObject } from "@obelisk/core";

/** What the confirmation hook answers for a call about to be dispatched. */
export type ConfirmDecision =
  | { readonly action: "approve" }
  | { readonly action: "modify"; readonly params: JsonObject }
  | { readonly action: "reject"; readonly reason: string };

/** The call shown to the confirmation hook. */
export interface ConfirmRequest {
  /** Call id. */
  readonly callId: string;
  /** Tool name. */
  readonly tool: string;
  /** Resolved parameters. */
  readonly params: JsonObject;
  /** Canonical output path, if any. */
  readonly outputPath?: string;
}

/** The confirmation hook: asked for each ready call just before dispatch (never for satisfied calls). */
export type ConfirmHook = (call: ConfirmRequest) => ConfirmDecision | Promise<ConfirmDecision>;
