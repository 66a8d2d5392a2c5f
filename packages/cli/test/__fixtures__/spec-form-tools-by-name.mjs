// spec-form-tools.mjs's tools as an object by name (the key is the `_tool` const), implementations alike.
import tools, { implementations } from "./spec-form-tools.mjs";

export default { verifyUser: tools[0], greet: tools[1] };
export { implementations };
