// An `implementations` export that is not an object of functions by tool name.
import tools from "./spec-form-tools.mjs";

export default tools;
export const implementations = "verify.js";
