/** `T` without `readonly`: for results built field by field (cheaper than conditional spreads). */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
