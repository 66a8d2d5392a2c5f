import { defineTool } from "obelisk";
import { z } from "zod";

const receipt = z.object({ orderId: z.string(), amount: z.number(), transactionId: z.string() });

/** Tools of the payments example: a payment that can fail, an order confirmed only on success, an approved refund. */
export default [
  defineTool({
    name: "processPayment",
    description: "Charges a card; a declined card throws (routed to the failure branch)",
    input: z.object({ orderId: z.string(), amount: z.number().positive(), card: z.string() }),
    output: receipt,
    outcomes: ["paid", "error"],
    run: ({ orderId, amount, card }) => {
      if (card.endsWith("0002")) {
        throw Object.assign(new Error(`card ending ${card.slice(-4)} was declined`), {
          code: "CARD_DECLINED",
        });
      }
      return { orderId, amount, transactionId: `tx-${orderId}-${Math.round(amount * 100)}` };
    },
  }),
  defineTool({
    name: "confirmOrder",
    description: "Confirms a paid order",
    input: z.object({ receipt }),
    output: z.object({ orderId: z.string(), status: z.literal("confirmed") }),
    run: ({ receipt: paid }) => ({ orderId: paid.orderId, status: "confirmed" as const }),
  }),
  defineTool({
    name: "issueRefund",
    description: "Refunds a payment; needs an approval under †state.approvals.refund",
    input: z.object({ receipt, approval: z.object({ by: z.string() }) }),
    // The approval must be read from †state.approvals (a plan cannot write it in), and a plan may not
    // force a rerun or extra retries of a refund. Neither makes the approval single-use: see the README.
    approvalParams: ["approval"],
    idempotent: false,
    output: z.object({ transactionId: z.string(), refunded: z.number(), approvedBy: z.string() }),
    run: ({ receipt: paid, approval }) => ({
      transactionId: paid.transactionId,
      refunded: paid.amount,
      approvedBy: approval.by,
    }),
  }),
];
