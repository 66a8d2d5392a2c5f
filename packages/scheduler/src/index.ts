export type { CallSlot, Operand, SlotPhase } from "./call-slot.js";
export { DecisionCore } from "./decision-core.js";
export type { ContextProbe, CoreEffect, DecisionCoreOptions, SettleInfo } from "./decision-types.js";
export { isApprovalReference } from "./unsatisfied-effect.js";
