/**
 * Server HTML of small, often repeated pieces of a page (a dashboard card's header, facts,
 * progress tracker and price breakdown; an available lead's card on /leads), remembered by a
 * key that spells out everything the piece shows, or by the input it is rendered from.
 *
 * React renders every element of a page on every request; a client's dashboard of ten requests
 * is mostly trackers and breakdowns that read the same from one view to the next. A piece
 * rendered once is put back as a string (`dangerouslySetInnerHTML` on its wrapper), so a
 * repeat costs a lookup. The key or the input must hold every value the markup depends on, so
 * a piece can never show stale data: changed data is another key or input, and a new render.
 * The pieces hold no islands (an `<Island>` needs
 * the page's collector, which a separate render does not have, and throws).
 */
import type { ReactElement } from "react";
import { renderToString } from "./react_server.ts";
import type { DashboardSurvey, SurveyEvent } from "../lib/survey_schema.ts";
import type { SurveyPageCardsInput } from "./survey/SurveyPageCards.tsx";

/**
 * `render()`'s HTML by key, at most `maxEntries` kept, the least recently used dropped first.
 * `identifierPrefix` is React's, for a piece rendered as an island's root (components/Island.tsx).
 */
export type HtmlCache = (
  key: string,
  render: () => ReactElement,
  options?: { identifierPrefix?: string },
) => string;

/**
 * A cache of its own for one kind of piece, sized for it: at most `maxEntries` kept, and at
 * most `maxChars` characters of keys and HTML together (for pieces whose size varies: a whole
 * island of 1 KB or of 35 KB), the least recently used dropped first. A piece larger than the
 * budget on its own is rendered, not kept, and drops nothing.
 */
export function htmlCache(maxEntries: number, maxChars = Infinity): HtmlCache {
  const remember = lru<string>(maxEntries, maxChars, (html) => html.length);
  return (key, render, options) =>
    remember(key, () => flattened(renderToString(render(), options)));
}

/**
 * The several pieces of one thing that sit apart in its markup (a dashboard card's header,
 * tracker, facts and breakdown, around the proposals), rendered together and remembered by what
 * they are rendered from, with no key string built. `slot` names the thing shown (a request's
 * card: its id; never data that could go stale), `input` is every value the pieces read, and a
 * repeat is a slot whose kept input is the same data as this one, compared value by value
 * (`sameData`). `render` gets the input, so a piece reads nothing else. A slot keeps up to
 * `versionsPerSlot` inputs (the same request as its client and as an admin see it, one lead at
 * two surveyors' distances), most recent first. The pieces come back in `render`'s order.
 *
 * Why not a key: the dashboard's cards were keyed by `JSON.stringify` of their survey, 1–3 KB
 * built and hashed per card per view, and their trackers by a key of their own; that was 8 % of
 * the 10-request dashboard's CPU and some 60 KB of its allocation per view
 * (bench/signed_in_pages.ts --profile). Comparing the input allocates next to nothing and stops
 * at the first difference. The kept input is a copy (`structuredClone`, on a miss only), so a
 * caller changing its objects after the render cannot make a kept piece look current.
 *
 * Bounded as `htmlCache` is: `maxEntries` versions in all and `maxChars` characters of HTML,
 * the least recently used slot dropped first; pieces over `maxChars` on their own are not kept.
 */
export type HtmlPartsByInput<I> = (
  slot: string,
  input: I,
  render: (input: I) => ReactElement[],
) => readonly string[];

/** An `HtmlPartsByInput` of its own (see there). */
export function htmlPartsByInput<I>(
  maxEntries: number,
  maxChars = Infinity,
  versionsPerSlot = 2,
): HtmlPartsByInput<I> {
  type Version = { input: I; parts: readonly string[]; chars: number };
  const slots = new Map<string, Version[]>();
  let entries = 0;
  let chars = 0;
  return (slot, input, render) => {
    const versions = slots.get(slot);
    if (versions) {
      slots.delete(slot);
      slots.set(slot, versions);
      for (let i = 0; i < versions.length; i++) {
        const version = versions[i];
        if (!sameData(version.input, input)) continue;
        if (i > 0) versions.unshift(...versions.splice(i, 1));
        return version.parts;
      }
    }
    const parts = Object.freeze(render(input).map((part) => flattened(renderToString(part))));
    const size = parts.reduce((n, part) => n + part.length, 0);
    if (size > maxChars) return parts;
    const kept = versions ?? [];
    if (!versions) slots.set(slot, kept);
    kept.unshift({ input: structuredClone(input), parts, chars: size });
    entries++;
    chars += size;
    if (kept.length > versionsPerSlot) {
      const dropped = kept.pop()!;
      entries--;
      chars -= dropped.chars;
    }
    while (entries > maxEntries || chars > maxChars) {
      const [oldest, old] = slots.entries().next().value!;
      slots.delete(oldest);
      for (const version of old) {
        entries--;
        chars -= version.chars;
      }
    }
    return parts;
  };
}

/**
 * Whether `a` and `b` are the same data as a render reads it: the same primitives (`===`), Dates
 * at the same time, arrays and plain objects with the same keys in the same order holding the
 * same data, and Maps and Sets (not subclasses) with the same keys (`===`) in the same order,
 * a Map's holding the same data. Anything else (a class instance, NaN) is the same only as
 * itself, so a doubt is a render, never a stale piece.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  const proto = Object.getPrototypeOf(a);
  if (Object.getPrototypeOf(b) !== proto) return false;
  if (proto === Map.prototype || proto === Set.prototype) {
    // A render iterates them in insertion order, so the order is part of the data.
    const aMap = a as Map<unknown, unknown>, bMap = b as Map<unknown, unknown>;
    if (aMap.size !== bMap.size) return false;
    const bEntries = bMap.entries();
    for (const [key, value] of aMap.entries()) { // a Set's entries are [value, value]
      const [bKey, bValue] = bEntries.next().value!;
      if (key !== bKey || !sameData(value, bValue)) return false;
    }
    return true;
  }
  if (proto !== Object.prototype) return false;
  // `for…in` over a plain object (no enumerable keys inherited: its prototype is Object's) is
  // V8's fast path; 0.5 against 0.67 µs per lead card with two `Object.keys` arrays.
  const bKeys = Object.keys(b);
  let i = 0;
  for (const key in a) {
    if (key !== bKeys[i++]) return false;
    if (
      !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
    ) return false;
  }
  return i === bKeys.length;
}

// What `make()` gave for a key, at most `maxEntries` kept and `maxChars` characters of keys and
// values (as `size` counts a value), the least recently used dropped first.
function lru<V>(maxEntries: number, maxChars: number, size: (value: V) => number) {
  const made = new Map<string, V>();
  let chars = 0;
  return (key: string, make: () => V): V => {
    let value = made.get(key);
    if (value === undefined) {
      value = make();
      const added = key.length + size(value);
      if (added > maxChars) return value;
      chars += added;
    } else made.delete(key);
    made.set(key, value);
    while (made.size > maxEntries || chars > maxChars) {
      const [oldest, kept] = made.entries().next().value!;
      made.delete(oldest);
      chars -= oldest.length + size(kept);
    }
    return value;
  };
}

/**
 * `html` flattened in place. React builds its output by concatenation, a rope of hundreds of
 * pieces per card that every later join of the page walks again: joining twenty cached lead
 * cards took ~0.5 ms as ropes and ~0.03 ms flat. Converting a string to a number flattens it
 * (the `flatstr` package's trick); the value is unused.
 */
function flattened(html: string): string {
  Number(html);
  return html;
}

/**
 * The dashboard cards' header, tracker, facts and breakdown, by card (components/survey/
 * SurveyCard.tsx): under 7 KB each, some 3.5 MB at most.
 */
export const cachedCardParts: HtmlPartsByInput<{
  survey: DashboardSurvey;
  events: readonly SurveyEvent[];
  proposalsAt: string | null;
}> = htmlPartsByInput(500);

/**
 * A request page's progress, request and quote cards' bodies, by request (as its client and
 * as an admin see it, two versions): 2–6 KB each, at most some 3 MB.
 */
export const cachedSurveyPageParts: HtmlPartsByInput<SurveyPageCardsInput> = htmlPartsByInput(
  300,
  3_000_000,
);
