// A tools module that takes a long time to load: says so on stderr, then waits (a test signals it meanwhile).
import tools from "./misbehaving-tools.mjs";

process.stderr.write("tools module loading\n");
await new Promise((resolve) => setTimeout(resolve, 60_000));
export default tools;
