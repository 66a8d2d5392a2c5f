import type { Path } from "@obelisk/core";
import type { ParamReference } from "./compiled-plan.js";

/**
 * A reference `collectReferences` found: its `pointer` (the call's pointer + the location's) is made when
 * read, on the shared prototype, instead of kept as a concatenated string per reference for as long as
 * the compiled plan lives (a 32-byte string and 24 bytes of the object's own, per reference). `location`
 * and `value` are own properties as before; `toJSON` writes all three, in their former order.
 */
export class CollectedReference implements ParamReference {
  readonly #callPointer: string;
  readonly #suffix: string;

  constructor(
    readonly location: Path,
    readonly value: ParamReference["value"],
    callPointer: string,
    suffix: string,
  ) {
    this.#callPointer = callPointer;
    this.#suffix = suffix;
  }

  /** JSON Pointer of the string in the submitted document. */
  get pointer(): string {
    return this.#callPointer + this.#suffix;
  }

  /** The reference as a plain object (`location`, `pointer`, `value`), as JSON shows it. */
  toJSON(): ParamReference {
    return { location: this.location, pointer: this.pointer, value: this.value };
  }
}
