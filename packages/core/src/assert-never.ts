/** Exhaustiveness check for discriminated unions: a new variant is a compile error where it is not handled. */
export function assertNever(value: never, message = "unexpected value"): never {
  throw new Error(`${message}: ${JSON.stringify(value)}`);
}
