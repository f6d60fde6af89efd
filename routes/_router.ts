/**
 * The app's router: Hono's TrieRouter, with the match of each recent request line (method and
 * path) remembered.
 *
 * Why: the app's routes are fixed once it is built, and the handlers and parameters a path
 * matches follow from the path alone, yet the router searched its tree again at every request,
 * with new arrays and parameter objects each time: 2 KB of the 56 KB a remembered client
 * dashboard allocated per view (`bench/signed_in_pages.ts --alloc`), the largest share of any
 * one function of the app's. Most requests ask for the same few paths again. Hono's faster
 * RegExpRouter (its default picks it when it can) cannot take this app's routes: a static
 * segment beside a parameter with more segments after it, such as
 * `/api/notifications/mark-all-read` and `/api/notifications/:id/read`, which the spec names.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

/** How many matches are remembered; the oldest goes first. */
const REMEMBERED_MATCHES = 1000;
/** Longer paths are matched each time: a remembered one holds its path as the key. */
const REMEMBERED_PATH_MAX = 200;

/** See the file's comment. */
export class RememberingRouter<T> implements Router<T> {
  name = "TrieRouter (matches remembered)";
  #router = new TrieRouter<T>();
  #matches = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#router.add(method, path, handler);
  }

  /**
   * The TrieRouter's match, the same object for the same method and path while it is
   * remembered: Hono only reads a match (its handlers, and the parameters `c.req.param()`
   * decodes into new strings).
   */
  match(method: string, path: string): Result<T> {
    if (path.length > REMEMBERED_PATH_MAX) return this.#router.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#router.match(method, path);
      if (this.#matches.size >= REMEMBERED_MATCHES) {
        this.#matches.delete(this.#matches.keys().next().value!);
      }
      this.#matches.set(key, result);
    }
    return result;
  }
}
