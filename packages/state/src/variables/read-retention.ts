import type { RetentionPolicy } from "../store-types.js";

/**
 * The retention whose age limits a read's expiry applies (`maxAgeMs`, `maxCallOutputAgeMs`; fields left out:
 * the store's own): the engine passes its `retention`, so the ages it was given hold on its reads (0104).
 */
export interface ReadRetention {
  /** The reader's retention policy; only its age limits are read. */
  readonly retention?: RetentionPolicy | undefined;
}
