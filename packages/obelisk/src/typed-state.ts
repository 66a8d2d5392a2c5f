import type { JsonObject, JsonValue } from "@obelisk/core";
import type { GetValueResult } from "@obelisk/state";
import type { z } from "zod";
import type { EngineOptions } from "./engine-types.js";

/*
 * Types for a host that declares its threads' state shape: `createEngine({ stateSchema: z.object(…) })`, or
 * `createEngine<State>({ stateSchema, … })` (decision 0035). Types only: the engine checks the shape at run
 * time through `stateSchema`, not these.
 */

/**
 * `T` with every member JSON cannot hold made `never`: `T extends JsonShaped<T>` is false for a type with a
 * `Date`, a `Map`, a function, a `bigint` anywhere in it (the store holds JSON: a `Date` comes back a
 * string). `undefined` is allowed where a key may be absent, `unknown` where any JSON value may be (a
 * `z.coerce.*` field: its JSON Schema takes anything).
 */
type JsonShaped<T> = unknown extends T
  ? T
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends (...args: never[]) => unknown
      ? never
      : T extends readonly unknown[]
        ? { readonly [K in keyof T]: JsonShaped<T[K]> }
        : T extends object
          ? { [K in keyof T]: JsonShaped<T[K]> }
          : never;

/**
 * Nothing to add when `State` is JSON-shaped; otherwise a required property whose name says why, so that
 * `createEngine<{ at: Date }>(…)` is a compile error naming the rule (a type parameter cannot be
 * constrained by a conditional type of itself).
 */
export type JsonStateCheck<State> = [State] extends [JsonShaped<State>]
  ? unknown
  : { readonly "the state type must be JSON: no Date, Map, Set, class instance, function or bigint": never };

/**
 * The options of `createEngine<State>`: `stateSchema` required (it is what holds the writes to the shape),
 * and `State` given explicitly and JSON-shaped. Without a type argument this overload does not apply, so
 * `createEngine({ … })` stays the plain `Engine`.
 */
export type TypedEngineOptions<State> = Omit<EngineOptions, "stateSchema"> & {
  /** JSON Schema (not checked against `State`), or zod schema whose values are `State`s, of the state. */
  readonly stateSchema: JsonObject | ZodSchemaOf<State>;
} & GivenStateCheck<State>;

/**
 * A zod schema every value of which is a `State`: its input type (what the JSON Schema converted from it
 * admits, decision 0035) is assignable to `State`.
 */
export type ZodSchemaOf<State> = z.ZodType<unknown, State>;

/** A zod schema of a thread's state: one whose values are objects. */
export type ZodStateSchema = ZodSchemaOf<object>;

/**
 * The options of `createEngine` with a zod `stateSchema`: converted to JSON Schema once, at engine creation,
 * as a tool's `input` is (`toJsonSchema` of `@obelisk/compiler`); the engine's state is typed from it.
 */
export type ZodStateEngineOptions<Schema extends ZodStateSchema> = Omit<EngineOptions, "stateSchema"> & {
  /** zod schema of every thread's state: converted to JSON Schema once; the state is typed from it. */
  readonly stateSchema: Schema;
};

/**
 * The state a zod `stateSchema` holds: its input type (`z.input`), as the JSON Schema writes are checked
 * against is converted with `io: "input"` and stored values are never parsed by zod (no defaults, no
 * transforms), as a tool's output type is `z.input` of its schema.
 */
export type ZodState<Schema extends ZodStateSchema> = z.input<Schema>;

/** The type argument was given (not the `never` default) and is JSON-shaped. */
type GivenStateCheck<State> = [State] extends [never]
  ? { readonly "give the state type explicitly: createEngine<State>(…)": never }
  : JsonStateCheck<State>;

/**
 * What a thread whose state has the shape `State` holds at any time: every object key may be absent (a
 * value appears when its writer ran, and goes with `unset`, eviction or `reset`), at every depth; arrays
 * keep their element types, each element partial itself; `unknown` stays `unknown`. Read-only, as
 * `JsonObject` is.
 */
export type PartialState<T> = unknown extends T
  ? T
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends readonly unknown[]
      ? { readonly [K in keyof T]: PartialState<T[K]> }
      : { readonly [K in keyof T]?: PartialState<T[K]> };

/** The characters of a string literal, as a union. */
type Chars<S extends string> = S extends `${infer C}${infer R}` ? C | Chars<R> : never;
type Lower = Chars<"abcdefghijklmnopqrstuvwxyz">;
/** A letter, `_` or `$`: what starts a name in a reference (`[A-Za-z_$]`). */
type NameStart = "_" | "$" | Lower | Uppercase<Lower>;
/** What continues a name (`[A-Za-z0-9_$-]`). */
type NamePart = NameStart | "-" | Chars<"0123456789">;
type IsNameRest<S extends string> = string extends S
  ? false
  : S extends ""
    ? true
    : S extends `${infer C}${infer R}`
      ? C extends NamePart
        ? IsNameRest<R>
        : false
      : false;
/** `true` when the key is one literal name (`[A-Za-z_$][A-Za-z0-9_$-]*`): `†state.<key>` reads that key. */
type IsName<S extends string> = string extends S
  ? false
  : S extends `${infer C}${infer R}`
    ? C extends NameStart
      ? IsNameRest<R>
      : false
    : false;

/**
 * The keys of a typed state that `†state.<key>` reads as they are: literal keys matching the name grammar.
 * A key with a dot, bracket or space (`†state.a.b` is a path, not the key `"a.b"`), an index signature's
 * `string`, and every key of the default `JsonObject` are left out: such references stay JSON-typed.
 */
export type StateKey<State> = {
  [K in keyof State & string]: IsName<K> extends true ? K : never;
}[keyof State & string];

/** What `get` answers for a typed reference: nothing, or the whole value with its type (never a page). */
export type GetStateResult<Value> =
  | Extract<GetValueResult, { readonly found: false }>
  | {
      readonly found: true;
      readonly value: Value;
      readonly items?: never;
      readonly entries?: never;
      readonly text?: never;
    };

/**
 * `get(threadId, "†state")`: the whole state, typed for a typed engine; JSON, as ever, for the default
 * `JsonObject` (told apart by its string index signature: a typed state with one reads as JSON too).
 */
export type GetWholeStateResult<State> = string extends keyof State
  ? Extract<GetValueResult, { readonly found: false } | { readonly value: JsonValue }>
  : GetStateResult<State>;
