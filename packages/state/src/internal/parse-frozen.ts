import { deepFreeze, type JsonValue } from "@obelisk/core";

/** JSON text the store reads back from its file, parsed and deep-frozen (what it hands out never changes). */
export const parseFrozen = <T>(text: string): T => deepFreeze(JSON.parse(text) as JsonValue) as T;
