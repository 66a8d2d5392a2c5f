/** A JSON value as stored and exchanged by Obelisk. */
export type JsonValue = null | boolean | number | string | JsonArray | JsonObject;
/** A JSON array. */
export type JsonArray = readonly JsonValue[];
/** A JSON object (a plain, prototype-free record). */
export type JsonObject = { readonly [key: string]: JsonValue };
