// An object of tools by name whose one value is undefined (a tool imported under a wrong name).
import * as nothing from "node:path";
export default { verify: nothing.verifyUser };
