// A tools module whose timer throws while it loads: the timer fires before the module's own (scheduled
// after it, with the same delay), so the exception always comes before the module has loaded.
import tools from "./misbehaving-tools.mjs";

setTimeout(() => {
  throw new Error("thrown while loading");
}, 0);
await new Promise((resolve) => setTimeout(resolve, 0));
export default tools;
