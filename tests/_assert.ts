/** The assertions tests use (node:assert underneath; @std/assert is on JSR, unreachable here). */
import nodeAssert from "node:assert/strict";
// `message as string`: with happy-dom loaded, @types/node 26 has no overload taking
// `string | undefined`; passing undefined still gives node's default message.

/** Fails unless `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message as string);
}

/** Deep, strict equality. */
export function assertEquals<T>(actual: unknown, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message as string);
}

/** Strict inequality. */
export function assertNotEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message as string);
}

/** `actual` matches `pattern`. */
export function assertMatch(actual: string, pattern: RegExp, message?: string): void {
  nodeAssert.match(actual, pattern, message as string);
}

/** `actual` contains `expected`. */
export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  if (!actual.includes(expected)) {
    nodeAssert.fail(
      message ?? `Expected string to include ${JSON.stringify(expected)}:\n${actual.slice(0, 500)}`,
    );
  }
}

/** `fn` rejects; returns the error. */
export async function assertRejects(
  fn: () => Promise<unknown>,
  message?: string,
): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  nodeAssert.fail(message ?? "Expected the promise to reject");
}
