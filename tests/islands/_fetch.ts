/**
 * `fetch` for island tests.
 *
 * - `useAppFetch(t, {cookie})` sends the island's requests to the real app in-process
 *   (`t.app.request`, the test database, the test's session), as a same-origin browser would,
 *   so a changed response shape fails the island's tests too. Only what the app cannot answer
 *   for real is `canned`: third-party services, and failures such as a network error or a 500.
 * - `stubFetch(routes)` answers every call from a script; only for islands whose every
 *   request is one of those cases.
 */
import { ORIGIN, type TestApp } from "../_helpers.ts";
import { sessionCookie } from "../../lib/sessions.ts";
import { backgroundWork } from "../../lib/background.ts";

/** One recorded request. */
export interface Call {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  credentials?: RequestCredentials;
  /** The request's abort signal, if it had one. */
  signal?: AbortSignal | null;
}

/**
 * How a route answers: a Response, or a function of the call returning one (or throwing).
 * Under `useAppFetch` the function also gets `app()`, the real app's answer to the call, to
 * delay it or to look at it first.
 */
export type Answer =
  | Response
  | ((call: Call, app: () => Promise<Response>) => Response | Promise<Response>);

function recordCall(input: string | URL | Request, init: RequestInit): { url: URL; call: Call } {
  const url = new URL(String(input), "http://localhost/");
  const method = (init.method ?? "GET").toUpperCase();
  const call: Call = {
    method,
    path: url.pathname + url.search,
    headers: new Headers(init.headers),
    body: typeof init.body === "string" ? JSON.parse(init.body) : init.body,
    credentials: init.credentials,
    signal: init.signal,
  };
  return { url, call };
}

/** Replaces globalThis.fetch; returns the recorded calls and a restore function. */
export function stubFetch(routes: Record<string, Answer>) {
  const original = globalThis.fetch;
  const calls: Call[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const { url, call } = recordCall(input, init);
    calls.push(call);
    const answer = routes[`${call.method} ${url.pathname}`];
    if (!answer) throw new Error(`Unexpected ${call.method} ${url.pathname}`);
    return typeof answer === "function"
      ? await answer(call, () => Promise.reject(new Error("stubFetch has no app")))
      : answer.clone();
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

/** What `useAppFetch` returns. */
export interface AppFetch {
  /** Every request the island made, in order. */
  calls: Call[];
  /** The session cookie (`name=value`) the browser holds now, or undefined when signed out. */
  cookie(): string | undefined;
  /**
   * Resolves once no request is in flight, the app's background work for them is done and the
   * answers have been handed to the island (wrap it in `act`). For waiting on the app without
   * guessing how long it takes.
   */
  idle(): Promise<void>;
  /** Puts the previous `fetch` back. */
  restore(): void;
}

function abortError(): DOMException {
  return new DOMException("The operation was aborted.", "AbortError");
}

/**
 * Replaces `globalThis.fetch` with one that answers from `t.app` in-process, the way the
 * browser on our own origin would call it: same-origin `Origin` and `Sec-Fetch-Site` headers,
 * the session cookie kept like a cookie jar (set and cleared by the app's `Set-Cookie`), and
 * an aborted signal rejecting with an `AbortError`. `canned` routes (`"METHOD /path"`) are
 * answered first; keep them for third-party services and for failures the app cannot be made
 * to produce (a network error, a 500), and say so where they are used.
 */
export function useAppFetch(
  t: TestApp,
  { cookie, canned = {} }: { cookie?: string; canned?: Record<string, Answer> } = {},
): AppFetch {
  const original = globalThis.fetch;
  const calls: Call[] = [];
  const cookieName = sessionCookie(t.deps.config).name;
  // Real answers take real time (an argon2 hash, a transaction) on a busy machine: give
  // waitFor/findBy longer than their 1 s default. Imported here, inside a test, because
  // @testing-library must load after setupDom(); by now the test file has loaded it.
  import("@testing-library/react").then(({ configure }) => configure({ asyncUtilTimeout: 10_000 }));
  let jar = cookie;
  let inFlight = 0;

  function keepCookies(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      if (pair.slice(0, eq).trim() !== cookieName) continue;
      const value = pair.slice(eq + 1).trim();
      const isExpired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) ||
        attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now());
      jar = value && !isExpired ? `${cookieName}=${value}` : undefined;
    }
  }

  async function app(url: URL, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("origin", ORIGIN);
    headers.set("sec-fetch-site", "same-origin");
    if (jar) headers.set("cookie", jar);
    const res = await t.app.request(`${ORIGIN}${url.pathname}${url.search}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body,
    });
    keepCookies(res);
    return res;
  }

  globalThis.fetch = (async (input: string | URL | Request, init: RequestInit = {}) => {
    const { url, call } = recordCall(input, init);
    calls.push(call);
    const signal = init.signal;
    if (signal?.aborted) throw abortError();
    inFlight++;
    try {
      return await answerCall(url, call, init, signal);
    } finally {
      inFlight--;
    }
  }) as typeof fetch;

  async function answerCall(url: URL, call: Call, init: RequestInit, signal?: AbortSignal | null) {
    const answer = canned[`${call.method} ${url.pathname}`];
    const response = answer === undefined
      ? app(url, init)
      : typeof answer === "function"
      ? Promise.resolve(answer(call, () => app(url, init)))
      : Promise.resolve(answer.clone());
    if (!signal) return await response;
    // A browser rejects the pending fetch as soon as its signal aborts.
    return await new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(abortError());
      signal.addEventListener("abort", onAbort, { once: true });
      response.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  async function idle() {
    // A macrotask after the last answer lets the island read the body and set its state;
    // that may start another request (a geocode after a pick), so look again.
    do {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await backgroundWork(t.deps).settled();
    } while (inFlight > 0);
  }

  return { calls, cookie: () => jar, idle, restore: () => (globalThis.fetch = original) };
}

/** A promise with its resolve function, to hold a response until the test releases it. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
