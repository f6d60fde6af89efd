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
  // A DOM node is compared by identity: deepStrictEqual would walk the whole (cyclic, huge)
  // happy-dom tree to build its diff, and a mismatch then hangs the test instead of failing it.
  if (isDomNode(actual) || isDomNode(expected)) {
    if (actual !== expected) {
      nodeAssert.fail(
        message ?? `Expected the node ${describeNode(expected)}, got ${describeNode(actual)}`,
      );
    }
    return;
  }
  nodeAssert.deepStrictEqual(actual, expected, message as string);
}

function isDomNode(value: unknown): value is { nodeName: string } {
  return typeof value === "object" && value !== null && "nodeType" in value &&
    "nodeName" in value;
}

function describeNode(value: unknown): string {
  if (!isDomNode(value)) return String(value);
  const el = value as { nodeName: string; id?: string; textContent?: string | null };
  const id = el.id ? `#${el.id}` : "";
  return `<${el.nodeName.toLowerCase()}${id}> "${(el.textContent ?? "").slice(0, 60)}"`;
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
