/**
 * `value` and everything it holds, frozen: for values shared between requests (a parsed pricing
 * configuration, a remembered lead summary), which nobody may change in place. Returns `value`.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
