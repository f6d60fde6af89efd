import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { htmlCache, htmlPartsByInput, sameData } from "../../components/html_cache.ts";

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

test("[html cache] a card's parts are rendered together once per input and handed back in order; other data renders its own", () => {
  let renders = 0;
  const parts = htmlPartsByInput<{ words: string[] }>(10);
  const get = (slot: string, words: string[]) =>
    parts(slot, { words }, ({ words }) => {
      renders++;
      return words.map((word, i) => <b key={i}>{word}</b>);
    });
  assertEquals(get("one", ["header", "", "facts"]), ["<b>header</b>", "<b></b>", "<b>facts</b>"]);
  // The same data in new objects: no render.
  assertEquals(get("one", ["header", "", "facts"]), ["<b>header</b>", "<b></b>", "<b>facts</b>"]);
  assertEquals(renders, 1);
  // Changed data in the same slot is a new render, never the kept parts.
  assertEquals(get("one", ["header", "", "changed"]), [
    "<b>header</b>",
    "<b></b>",
    "<b>changed</b>",
  ]);
  assertEquals(get("two", ["other"]), ["<b>other</b>"]);
  assertEquals(renders, 3);
  // A slot keeps two versions (a request as its client and as an admin see it), then drops the
  // oldest.
  get("one", ["header", "", "facts"]);
  assertEquals(renders, 3);
  get("one", ["third"]);
  get("one", ["header", "", "changed"]);
  assertEquals(renders, 5);
});

test("[html cache] parts by input: past their number of versions or characters, the least recently used slot goes first; parts over the budget alone are not kept", () => {
  const renders = new Map<string, number>();
  const parts = htmlPartsByInput<{ text: string }>(3, 60, 2);
  const get = (slot: string, text: string) =>
    parts(slot, { text }, ({ text }) => {
      renders.set(text, (renders.get(text) ?? 0) + 1);
      return [<p key="p">{text}</p>];
    });
  get("a", "a1");
  get("a", "a2");
  get("b", "b1"); // three versions
  get("c", "c1"); // four: drops slot a, both its versions
  get("b", "b1");
  get("c", "c1");
  get("a", "a1");
  assertEquals(Object.fromEntries(renders), { a1: 2, a2: 1, b1: 1, c1: 1 });
  const big = "x".repeat(60);
  assertEquals(get("d", big), [`<p>${big}</p>`]);
  assertEquals(get("d", big), [`<p>${big}</p>`]);
  assertEquals(renders.get(big), 2);
  get("b", "b1");
  assertEquals(renders.get("b1"), 1);
});

test("[html cache] parts by input keep a copy: an input changed after its render is not taken for the kept one", () => {
  let renders = 0;
  const parts = htmlPartsByInput<{ price: number }>(10);
  const render = ({ price }: { price: number }) => {
    renders++;
    return [<b key="price">{price}</b>];
  };
  const input = { price: 100 };
  assertEquals(parts("s", input, render), ["<b>100</b>"]);
  input.price = 250;
  assertEquals(parts("s", input, render), ["<b>250</b>"]);
  assertEquals(renders, 2);
});

test("[html cache] sameData: the same JSON-like data in other objects, and nothing that reads differently", () => {
  const survey = () => ({
    id: "s1",
    price: 45000,
    quote: { lines: [{ label: "Base", cents: 40000 }, { label: "Rush", cents: 5000 }] },
    at: new Date("2026-11-30T00:00:00Z"),
    note: null,
    missing: undefined,
  });
  assert(sameData(survey(), survey()));
  assert(sameData([1, "a", null], [1, "a", null]));
  const other = survey();
  other.quote.lines[1].cents = 5001;
  assert(!sameData(survey(), other));
  assert(!sameData(survey(), { ...survey(), at: new Date("2026-12-01T00:00:00Z") }));
  assert(!sameData(survey(), { ...survey(), note: undefined }));
  assert(!sameData({ a: 1, b: 2 }, { b: 2, a: 1 })); // key order can change a render
  assert(!sameData({ a: 1 }, { a: 1, b: undefined }));
  assert(!sameData([1, 2], { 0: 1, 1: 2 }));
  assert(!sameData([1, 2], [1, 2, 3]));
  assert(!sameData(0, "0"));
  assert(!sameData(Number.NaN, Number.NaN)); // a doubt is a render
  assert(sameData(new Map([["a", [1]], ["b", [2]]]), new Map([["a", [1]], ["b", [2]]])));
  assert(!sameData(new Map([["a", [1]]]), new Map([["a", [2]]])));
  assert(!sameData(new Map([["a", 1], ["b", 2]]), new Map([["b", 2], ["a", 1]]))); // order
  assert(!sameData(new Map([["a", 1]]), new Map([["a", 1], ["b", 2]])));
  assert(!sameData(new Map([["1", 1]]), new Map([[1, 1]])));
  assert(!sameData(new Map([["a", 1]]), { a: 1 }));
  assert(sameData(new Set(["a", "b"]), new Set(["a", "b"])));
  assert(!sameData(new Set(["a", "b"]), new Set(["b", "a"])));
  assert(!sameData(new Set(["a"]), new Map([["a", "a"]])));
  class Table extends Map<string, number> {}
  assert(!sameData(new Table([["a", 1]]), new Table([["a", 1]]))); // a subclass may read more
  class Money {
    constructor(readonly cents: number) {}
  }
  assert(!sameData(new Money(1), new Money(1)));
  assert(!sameData(new Money(1), { cents: 1 }));
});
