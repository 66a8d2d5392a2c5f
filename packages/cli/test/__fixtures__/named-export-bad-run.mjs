// A named export that looks like a tool but whose run is no function.
export const shout = { name: "shout", input: { type: "object" }, run: "upper-case it" };
