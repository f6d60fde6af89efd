import { renderToString } from "../../components/react_server.ts";
import { createElement } from "react";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import {
  fitView,
  FULL_VIEW,
  MAP_HEIGHT,
  MAP_WIDTH,
  MIN_VIEW_WIDTH,
  projectPoint,
  statesPaths,
  statesPathsSize,
} from "../../lib/maps.ts";
import { type MapPoint, UsMap } from "../../components/UsMap.tsx";
import { MapOutlineContext } from "../../components/StatesOutline.tsx";

function inside(xy: [number, number] | null): boolean {
  return xy !== null && xy[0] >= 0 && xy[0] <= MAP_WIDTH && xy[1] >= 0 && xy[1] <= MAP_HEIGHT;
}

function render(points: MapPoint[], caption?: string): string {
  return renderToString(createElement(UsMap, { title: "Surveyors near Austin", points, caption }));
}

const AUSTIN: MapPoint = { lat: 30.2672, lng: -97.7431, kind: "property", label: "1 Elm St" };

/**
 * The drawn markers in drawing order, each with its kind and its shape's outline: a marker is a
 * `<use>` of its kind's shape (defined once in `<defs>`) inside its kind's group.
 */
function drawnMarks(html: string): { kind: string; d: string; x: number; y: number }[] {
  const shapes = new Map(
    [...html.matchAll(/<path id="([^"]+)" d="([^"]+)"/g)].map((m) => [m[1], m[2]]),
  );
  return [...html.matchAll(/<g class="us-map__mark us-map__mark--(\w+)">(.*?)<\/g>/g)].flatMap(
    ([, kind, body]) =>
      [...body.matchAll(/<use href="#([^"]+)" x="([^"]+)" y="([^"]+)"/g)].map((m) => ({
        kind,
        d: shapes.get(m[1]) ?? "",
        x: Number(m[2]),
        y: Number(m[3]),
      })),
  );
}

Deno.test("[maps] US cities project inside the map, west to east and north to south", () => {
  const sanFrancisco = projectPoint(37.7749, -122.4194);
  const newYork = projectPoint(40.7128, -74.006);
  const miami = projectPoint(25.7617, -80.1918);
  const anchorage = projectPoint(61.2181, -149.9003);
  const honolulu = projectPoint(21.3069, -157.8583);
  for (const xy of [sanFrancisco, newYork, miami, anchorage, honolulu]) assert(inside(xy), `${xy}`);
  assert(sanFrancisco![0] < newYork![0], "San Francisco is left of New York");
  assert(newYork![1] < miami![1], "New York is above Miami");
  // Alaska and Hawaii are insets in the bottom-left corner.
  assert(anchorage![0] < MAP_WIDTH / 3 && anchorage![1] > MAP_HEIGHT / 2);
  assert(honolulu![0] < MAP_WIDTH / 2 && honolulu![1] > MAP_HEIGHT * 0.8);
  // Rounded to one decimal, like the outline.
  assertEquals(sanFrancisco!.map((v) => Math.round(v * 10) / 10), sanFrancisco);
});

Deno.test("[maps] points Albers USA does not show are null, not a dot somewhere", () => {
  assertEquals(projectPoint(18.4655, -66.1057), null, "San Juan, Puerto Rico");
  assertEquals(projectPoint(13.4443, 144.7937), null, "Guam");
  assertEquals(projectPoint(51.5072, -0.1276), null, "London");
  assertEquals(projectPoint(Number.NaN, -97), null);
  assertEquals(projectPoint(30, Number.POSITIVE_INFINITY), null);
});

Deno.test("[maps] the states outline is computed once and is compact path data", () => {
  const first = statesPaths();
  const second = statesPaths();
  assert(first === second, "the same cached object");
  assertEquals(first.land, second.land);
  // One filled land path with closed rings, one stroked border path of open lines.
  assertMatch(first.land, /^(M[-.\d ]+l[-.\d ]+z)+$/);
  assertMatch(first.borders, /^(M[-.\d ]+l[-.\d ]+)+$/);
  const size = statesPathsSize();
  console.log(`states outline: ${size} bytes of path data`);
  assert(size > 10_000 && size < 30_000, `outline is ${size} bytes`);
  // Every ring of the 50 states (lower 48's shared outline, Alaska's and Hawaii's islands).
  assert(first.land.split("M").length > 40);
});

Deno.test("[maps] the map draws each point with its kind's shape, surveyors over the property", () => {
  const html = render([
    AUSTIN,
    { lat: 30.5, lng: -97.6, kind: "in_network", label: "Hill Country Surveying" },
    { lat: 29.9, lng: -97.9, kind: "prospect", label: "Lone Star Land" },
    { lat: 31, lng: -97, kind: "out_of_network", label: "Waco Survey Co" },
  ]);
  const marks = drawnMarks(html);
  assertEquals(marks.map((m) => m.kind), ["property", "out_of_network", "prospect", "in_network"]);
  assertEquals(new Set(marks.map((m) => m.d)).size, 4, "four different shapes");
  assertStringIncludes(html, 'role="img"');
  const [, labelledBy] = html.match(/aria-labelledby="([^"]+)"/)!;
  const [titleId, descId] = labelledBy.split(" ");
  assertStringIncludes(html, `<title id="${titleId}">Surveyors near Austin</title>`);
  assertStringIncludes(
    html,
    `<desc id="${descId}">Shows 1 property, 1 in-network surveyor, 1 prospect, 1 out-of-network surveyor. The same data is in the table below the map.</desc>`,
  );
  // Legend: the kinds present with their counts.
  assertEquals(
    [...html.matchAll(/<li><svg[^]*?<\/svg>([^<]+)<span class="muted">([^<]+)<\/span><\/li>/g)]
      .map((m) => `${m[1]}${m[2]}`),
    [
      "Properties (1)",
      "In-network surveyors (1)",
      "Prospects (1)",
      "Out-of-network surveyors (1)",
    ],
  );
});

Deno.test("[maps] each kind's shape is sent once: many markers of a kind are uses of it, each with its own place and tooltip", () => {
  const firms = Array.from({ length: 30 }, (_, i): MapPoint => ({
    lat: 30 + i / 10,
    lng: -97 - i / 10,
    kind: "in_network",
    label: `Firm ${i}`,
  }));
  const html = render([AUSTIN, ...firms]);
  const marks = drawnMarks(html);
  assertEquals(marks.length, 31);
  assertEquals(marks.filter((m) => m.kind === "in_network").length, 30);
  assertEquals(new Set(marks.map((m) => `${m.x} ${m.y}`)).size, 31, "each at its own place");
  // Two shapes in the page's map (the legend draws its own small copies).
  assertEquals(html.match(/<path id="/g)?.length, 2);
  assertEquals(
    html.match(/a7 7 0 1 0 14 0/g)?.length,
    2,
    "the circle: its shape and its legend mark",
  );
  assertStringIncludes(html, "<title>Firm 29 (In-network surveyor)</title></use>");
});

Deno.test("[maps] a surveyor's own office is its own kind: a house drawn on top, 'Your office' in the legend and the table", () => {
  const html = render([
    { lat: 30.33, lng: -97.75, kind: "office", label: "Your office (Barton Creek Surveying)" },
    AUSTIN,
    { lat: 30.5, lng: -97.6, kind: "in_network", label: "Hill Country Surveying" },
  ]);
  const marks = drawnMarks(html);
  assertEquals(marks.map((m) => m.kind), ["property", "in_network", "office"]);
  assertEquals(new Set(marks.map((m) => m.d)).size, 3, "the office has a shape of its own");
  assertMatch(html, /<title>Your office \(Barton Creek Surveying\) \(Your office\)<\/title>/);
  assertStringIncludes(
    html,
    ">Shows 1 property, your office, 1 in-network surveyor. The same data is in the table below the map.</desc>",
  );
  assertEquals(
    [...html.matchAll(/<li><svg[^]*?<\/svg>([^<]+)<span class="muted">([^<]+)<\/span><\/li>/g)]
      .map((m) => `${m[1]}${m[2]}`),
    ["Properties (1)", "Your office (1)", "In-network surveyors (1)"],
  );
  assertStringIncludes(
    html,
    '<td data-label="Name">Your office (Barton Creek Surveying)</td><td data-label="Kind">Your office</td>',
  );
  // Its legend mark is the house, not the in-network circle.
  const legendOffice = html.match(
    /<path class="us-map__mark us-map__mark--office" d="([^"]+)"><\/path><\/svg>Your office/,
  );
  assert(legendOffice, "the legend draws the office's own mark");
  assertEquals(legendOffice[1], marks[2].d);
});

Deno.test("[maps] a point outside the map is listed in the table but not drawn", () => {
  const html = render([
    AUSTIN,
    {
      lat: 18.4655,
      lng: -66.1057,
      kind: "prospect",
      label: "San Juan Surveys",
      distanceMiles: 1804.26,
    },
    {
      lat: 30.5,
      lng: -97.6,
      kind: "in_network",
      label: "Hill Country Surveying",
      href: "/surveyor-detail/abc",
      distanceMiles: 12.34,
    },
  ]);
  assertEquals(drawnMarks(html).filter((m) => m.kind === "prospect").length, 0);
  assertStringIncludes(
    html,
    '<desc id="' + html.match(/<desc id="([^"]+)"/)![1] +
      '">Shows 1 property, 1 in-network surveyor. 1 point is outside the map area: listed in the table, not drawn. The same data is in the table below the map.</desc>',
  );
  assertStringIncludes(
    html,
    '<p class="muted">1 point is outside the map area: listed in the table, not drawn.</p>',
  );
  assertStringIncludes(html, "<summary>Show the map&#x27;s data as a table</summary>");
  const rows = [
    ...html.matchAll(
      /<tr><td data-label="Name">(.*?)<\/td><td data-label="Kind">(.*?)<\/td><td data-label="Distance">(.*?)<\/td><td data-label="On the map">(.*?)<\/td><\/tr>/g,
    ),
  ]
    .map((m) => m.slice(1));
  assertEquals(rows, [
    // The server writes "—" as a numeric reference (components/react_server.ts).
    ["1 Elm St", "Property", "&#8212;", "Yes"],
    ["San Juan Surveys", "Prospect", "1,804.3 mi", "Not on the map"],
    [
      '<a href="/surveyor-detail/abc">Hill Country Surveying</a>',
      "In-network surveyor",
      "12.3 mi",
      "Yes",
    ],
  ]);
  // The table's scroll region is named and reachable by keyboard.
  assertStringIncludes(html, 'role="region" aria-label="Surveyors near Austin table" tabindex="0"');
});

Deno.test("[maps] without distances there is no Distance column", () => {
  const html = render([AUSTIN], "Drawn when the page loaded.");
  assert(!html.includes(">Distance<"));
  assertStringIncludes(html, '<p class="muted">Drawn when the page loaded.</p>');
});

Deno.test("[maps] labels are escaped: a name cannot inject markup into the page", () => {
  const evil = '<script>alert("x")</script><img src=x onerror=alert(1)>';
  const html = render([{ ...AUSTIN, label: evil, href: 'javascript:alert(1)" onclick="x' }]);
  assert(!html.includes("<script>"), "no script element");
  assert(!html.includes("<img"), "no img element");
  assertStringIncludes(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  assert(!html.includes('" onclick="x'), "the href cannot close its attribute");
});

Deno.test("[maps] fitView zooms to the points in the map's proportions, never too close", () => {
  assertEquals(fitView([]), FULL_VIEW);
  const austin = projectPoint(30.2672, -97.7431)!;
  const roundRock = projectPoint(30.5083, -97.6789)!;
  const view = fitView([austin, roundRock]);
  assertEquals(view.width, MIN_VIEW_WIDTH, "two points 17 miles apart: the smallest view");
  assert(Math.abs(view.width / view.height - MAP_WIDTH / MAP_HEIGHT) < 0.01);
  for (const [x, y] of [austin, roundRock]) {
    assert(x > view.x && x < view.x + view.width && y > view.y && y < view.y + view.height);
  }
  // Coast to coast needs the whole map.
  assertEquals(fitView([projectPoint(37.77, -122.42)!, projectPoint(40.71, -74.01)!]), FULL_VIEW);
  // Near an edge the view stays inside the map.
  const miami = fitView([projectPoint(25.76, -80.19)!]);
  assert(miami.x + miami.width <= MAP_WIDTH && miami.y + miami.height <= MAP_HEIGHT);
});

Deno.test("[maps] fit=points zooms the viewBox and keeps the markers' size on screen", () => {
  const points: MapPoint[] = [
    AUSTIN,
    { lat: 30.5, lng: -97.6, kind: "in_network", label: "Hill Country Surveying" },
  ];
  const country = renderToString(createElement(UsMap, { title: "Map", points }));
  assertStringIncludes(country, `viewBox="0 0 ${MAP_WIDTH} ${MAP_HEIGHT}"`);
  const zoomed = renderToString(createElement(UsMap, { title: "Map", points, fit: "points" }));
  const [, , , width] = zoomed.match(/viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"/)!;
  assertEquals(Number(width), MIN_VIEW_WIDTH);
  const scale = (MIN_VIEW_WIDTH / MAP_WIDTH).toFixed(3);
  // Each kind's shape (defined once) is scaled down by the zoom; the markers only place it.
  assertEquals(zoomed.split(`transform="scale(${scale})"`).length - 1, 2);
  assertEquals(drawnMarks(zoomed).length, 2);
  assertEquals(country.split("transform=").length - 1, 0, "no scale on the whole country");
  // The same cached outline either way.
  assertStringIncludes(zoomed, statesPaths().land);
});

Deno.test("[maps] the markers are the markup React renders for them, labels escaped the same way", () => {
  // Every kind, labels with each character React escapes, non-ASCII, whole and negative-free
  // coordinates, and a point that is not drawn; once for the whole country, once zoomed.
  const points: MapPoint[] = [
    AUSTIN,
    { lat: 30.5, lng: -97.6, kind: "in_network", label: `Smith & Sons <"Best"> O'Neil` },
    { lat: 29.9, lng: -97.9, kind: "prospect", label: "Ñandú Topografía — 測量" },
    { lat: 31, lng: -97, kind: "out_of_network", label: "&amp; already escaped?" },
    { lat: 30.27, lng: -97.74, kind: "office", label: "Your own office" },
    { lat: 30.3, lng: -97.7, kind: "in_network", label: "" },
    { lat: 18.2, lng: -66.5, kind: "prospect", label: "Puerto Rico firm (not drawn)" },
    { lat: 47.6, lng: -122.3, kind: "out_of_network", label: "Seattle 'Survey' Co" },
  ];
  const kindLabels: Record<string, string> = {
    property: "Property",
    office: "Your office",
    in_network: "In-network surveyor",
    prospect: "Prospect",
    out_of_network: "Out-of-network surveyor",
  };
  const drawOrder = ["property", "out_of_network", "prospect", "in_network", "office"];
  for (const fit of ["country", "points"] as const) {
    const html = renderToString(createElement(UsMap, { title: "T", points, fit }));
    const id = html.match(/<path id="([^"]+)m\d+"/)![1];
    const expected = renderToString(
      createElement(
        "svg",
        null,
        drawOrder.map((kind) => {
          const marks = points.flatMap((p) => {
            const xy = projectPoint(p.lat, p.lng);
            return xy && p.kind === kind ? [{ p, xy }] : [];
          });
          if (!marks.length) return null;
          return createElement(
            "g",
            { key: kind, className: `us-map__mark us-map__mark--${kind}` },
            marks.map(({ p, xy }, i) =>
              createElement(
                "use",
                { key: i, href: `#${id}m${drawOrder.indexOf(kind)}`, x: xy[0], y: xy[1] },
                createElement("title", null, `${p.label} (${kindLabels[p.kind]})`),
              )
            ),
          );
        }),
      ),
    ).replace(/^<svg>|<\/svg>$/g, "");
    const groups = html.match(/<g class="us-map__mark[^]*<\/g>/)![0];
    assertEquals(groups, expected, fit);
    assertStringIncludes(groups, "Smith &amp; Sons &lt;&quot;Best&quot;&gt; O&#x27;Neil");
  }
});

Deno.test("[maps] a map is remembered by what it shows: the same props the same HTML, any change drawn anew", () => {
  const points: MapPoint[] = [
    AUSTIN,
    {
      lat: 30.5,
      lng: -97.6,
      kind: "in_network",
      label: "Hill Country Surveying",
      distanceMiles: 9,
    },
  ];
  const first = render(points, "Drawn at 9:00");
  assertEquals(render(points, "Drawn at 9:00"), first);
  const renamed = render([AUSTIN, { ...points[1], label: "Lone Star Surveying" }], "Drawn at 9:00");
  assertStringIncludes(renamed, "Lone Star Surveying");
  assert(!renamed.includes("Hill Country Surveying"), "the old name is gone");
  const moved = render([AUSTIN, { ...points[1], distanceMiles: 12 }], "Drawn at 9:00");
  assertStringIncludes(moved, "12 mi");
  assert(!moved.includes("9 mi"), "the old distance is gone");
  const recaptioned = render(points, "Drawn at 9:05");
  assertStringIncludes(recaptioned, "Drawn at 9:05");
  assert(!recaptioned.includes("Drawn at 9:00"));
});

Deno.test("[maps] two maps on one page have ids of their own, each naming its own title", () => {
  const html = renderToString(
    createElement(
      "main",
      null,
      createElement(UsMap, { title: "First map", points: [AUSTIN] }),
      createElement(UsMap, { title: "Second map", points: [AUSTIN] }),
    ),
  );
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  assertEquals(new Set(ids).size, ids.length, `unique ids: ${ids.join(" ")}`);
  const labelled = [...html.matchAll(/<svg[^>]*aria-labelledby="([^"]+)"/g)].map((m) => m[1]);
  assertEquals(labelled.length, 2);
  for (const [i, title] of ["First map", "Second map"].entries()) {
    const [titleId] = labelled[i].split(" ");
    assertStringIncludes(html, `<title id="${titleId}">${title}</title>`);
  }
});

Deno.test("[maps] a remembered map still draws the states from the page's outline file", () => {
  const withFile = (href: string | undefined) =>
    renderToString(
      createElement(
        MapOutlineContext.Provider,
        { value: href },
        createElement(UsMap, { title: "Map", points: [AUSTIN] }),
      ),
    );
  for (const href of ["/static/build/us-outline-AAAA.svg", "/static/build/us-outline-BBBB.svg"]) {
    const html = withFile(href);
    assertStringIncludes(html, `href="${href}#land"`);
    assert(!html.includes('class="us-map__land" d='), "no inline outline path");
  }
  assertStringIncludes(withFile(undefined), '<path class="us-map__land" d="M');
});
