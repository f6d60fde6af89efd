/**
 * A scripted `fetch` for island tests: each call is recorded and answered by the first route
 * whose method and path match. Unmatched calls fail the test loudly.
 */

/** One recorded request. */
export interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  credentials?: RequestCredentials;
}

/** How a route answers: a Response, or a function of the call returning one (or throwing). */
export type Answer = Response | ((call: Call) => Response | Promise<Response>);

/** Replaces globalThis.fetch; returns the recorded calls and a restore function. */
export function stubFetch(routes: Record<string, Answer>) {
  const original = globalThis.fetch;
  const calls: Call[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://localhost/");
    const method = (init.method ?? "GET").toUpperCase();
    const call: Call = {
      method,
      path: url.pathname + url.search,
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
    };
    calls.push(call);
    const answer = routes[`${method} ${url.pathname}`];
    if (!answer) throw new Error(`Unexpected ${method} ${url.pathname}`);
    return typeof answer === "function" ? await answer(call) : answer.clone();
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

/** A promise with its resolve function, to hold a response until the test releases it. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
