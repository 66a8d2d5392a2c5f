/** A fingerprint of the built-in prototypes a pollution would change. */
export function prototypeFingerprint(): string {
  const describe = (target: object) =>
    Reflect.ownKeys(target)
      .map((key) => {
        const descriptor = Object.getOwnPropertyDescriptor(target, key);
        const kind =
          descriptor === undefined ? "?" : "value" in descriptor ? typeof descriptor.value : "accessor";
        return `${String(key)}:${kind}`;
      })
      .sort()
      .join(",");
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((target) => `${describe(target)}|${String(Object.getPrototypeOf(target))}`)
    .join("\n");
}

/** Every way a pollution shows up on fresh objects (`({}).polluted`, `[].polluted`, …); empty when clean. */
export function pollutionSigns(): string[] {
  const signs: string[] = [];
  const probes: Record<string, unknown> = {
    object: {},
    array: [],
    fn: () => 0,
    nullProto: Object.create(null),
  };
  for (const [name, probe] of Object.entries(probes)) {
    for (const key of ["polluted", "isAdmin", "x", "injected"]) {
      if ((probe as Record<string, unknown>)[key] !== undefined) signs.push(`${name}.${key}`);
    }
  }
  return signs;
}
