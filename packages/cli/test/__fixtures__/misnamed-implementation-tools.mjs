// An implementation keyed by a name no tool has (verifyUsr): refused, with the nearest tool name as hint.
import tools from "./spec-form-tools.mjs";

export default tools;
export const implementations = { verifyUsr: () => ({ ok: true }), greet: () => "hi" };
