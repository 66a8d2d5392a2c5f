/** The longest delay a timer can hold (2^31 − 1 ms, ~24.8 days); Node fires a longer one after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
