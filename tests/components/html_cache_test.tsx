import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { htmlCache, htmlPartsCache } from "../../components/html_cache.ts";

/** A cache and a count of the renders it asked for, by key. */
function counted(maxEntries: number, maxChars?: number) {
  const renders = new Map<string, number>();
  const cache = htmlCache(maxEntries, maxChars);
  return {
    renders,
    get: (key: string, text = key) =>
      cache(key, () => {
        renders.set(key, (renders.get(key) ?? 0) + 1);
        return <p>{text}</p>;
      }),
  };
}

test("[html cache] a piece is rendered once per key and handed back the same; other keys render their own", () => {
  const { renders, get } = counted(10);
  assertEquals(get("a", "first"), "<p>first</p>");
  assertEquals(get("a", "ignored: remembered by key"), "<p>first</p>");
  assertEquals(get("b", "second"), "<p>second</p>");
  assertEquals(Object.fromEntries(renders), { a: 1, b: 1 });
});

test("[html cache] past its number of pieces, the least recently used goes first", () => {
  const { renders, get } = counted(2);
  get("a");
  get("b");
  get("a"); // a is now the most recently used
  get("c"); // drops b
  get("a");
  get("b"); // rendered again; drops c
  get("c"); // rendered again
  assertEquals(Object.fromEntries(renders), { a: 1, b: 2, c: 2 });
});

test("[html cache] past its budget of characters (keys and HTML), the least recently used go first, and a piece over the budget alone is not kept", () => {
  // Each piece: a 10-character key and "<p>" + 10 + "</p>" = 17 characters of HTML: 27.
  const { renders, get } = counted(100, 60);
  const key = (c: string) => c.repeat(10);
  get(key("a"));
  get(key("b")); // 54 characters
  get(key("c")); // 81: drops a
  get(key("b"));
  get(key("c"));
  get(key("a")); // rendered again; drops b
  assertEquals(renders.get(key("a")), 2);
  assertEquals(renders.get(key("b")), 1);
  assertEquals(renders.get(key("c")), 1);
  // 100 characters of text: never kept, and it keeps nothing else out.
  const big = "x".repeat(100);
  assertEquals(get(big), `<p>${big}</p>`);
  assertEquals(get(big), `<p>${big}</p>`);
  assertEquals(renders.get(big), 2);
  get(key("c"));
  get(key("a"));
  assertEquals(renders.get(key("c")), 1);
  assertEquals(renders.get(key("a")), 2);
});

test("[html cache] a card's parts are rendered together once per key and handed back in order; other keys render their own", () => {
  let renders = 0;
  const parts = htmlPartsCache(10, 100);
  const get = (key: string, words: string[]) =>
    parts(key, () => {
      renders++;
      return words.map((word, i) => <b key={i}>{word}</b>);
    });
  assertEquals(get("one", ["header", "", "facts"]), ["<b>header</b>", "<b></b>", "<b>facts</b>"]);
  assertEquals(get("one", ["ignored"]), ["<b>header</b>", "<b></b>", "<b>facts</b>"]);
  assertEquals(get("two", ["other"]), ["<b>other</b>"]);
  assertEquals(renders, 2);
  // Past the budget (keys and every part's HTML), the oldest goes first.
  get("three", ["x".repeat(60)]);
  assertEquals(get("one", ["again"]), ["<b>again</b>"]);
  assertEquals(renders, 4);
});
