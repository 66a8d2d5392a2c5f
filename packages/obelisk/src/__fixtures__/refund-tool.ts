import { z } from "zod";
import { defineTool } from "../index.js";

/** The payments example's refund, which a person must approve (`approvalParams`); each run's receipt goes into `runs`. */
export function refundTool(runs: string[]) {
  return defineTool({
    name: "issueRefund",
    input: z.object({ receipt: z.string(), approval: z.object({ by: z.string() }) }),
    approvalParams: ["approval"],
    run: (args) => {
      runs.push(args.receipt);
      return { refunded: args.receipt };
    },
  });
}

/** A call of {@link refundTool} reading the approval at `†state.approvals.refund`. */
export const REFUND_CALL = {
  _tool: "issueRefund",
  _id: "refund",
  receipt: "r-1",
  approval: "†state.approvals.refund",
  _outputPath: "†state.refund",
};
