/**
 * The licensing bodies the town pages name (issue 24): every state the app serves either has a
 * checked name or is listed as a gap with a reason, and a gap keeps the generic wording.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { test } from "../_helpers.ts";
import {
  LICENSING_BOARD_GAPS,
  LICENSING_BOARDS,
  licensingBoard,
} from "../../lib/licensing_boards.ts";
import { EXAMPLE_LOTS, type ExamplePrice, townFaqs } from "../../lib/local_pages.ts";
import { PRICED_SURVEY_TYPES, type PricedSurveyType } from "../../lib/pricing.ts";
import { STATE_CODES, type StateCode } from "../../lib/survey_options.ts";

/** Example prices as townFaqs reads them (the type's example lot and a total). */
function prices(): Record<PricedSurveyType, ExamplePrice> {
  return Object.fromEntries(
    PRICED_SURVEY_TYPES.map((type, i) => [
      type,
      { example: EXAMPLE_LOTS[type], totalCents: 40_000 + i * 10_000 } as ExamplePrice,
    ]),
  ) as Record<PricedSurveyType, ExamplePrice>;
}

function faqText(state: StateCode, type: PricedSurveyType | null = null): string {
  return townFaqs({ townName: "Springfield", state, prices: prices(), firmCount: 2, type })
    .map((f) => `${f.q}\n${f.a}`).join("\n");
}

test("[licensing boards] every served state has a checked licensing body or a stated gap, never both", () => {
  for (const state of STATE_CODES) {
    const board = Object.hasOwn(LICENSING_BOARDS, state);
    const gap = Object.hasOwn(LICENSING_BOARD_GAPS, state);
    assert(board !== gap, `${state}: board ${board}, gap ${gap}`);
  }
  const served = new Set<string>(STATE_CODES);
  for (const code of [...Object.keys(LICENSING_BOARDS), ...Object.keys(LICENSING_BOARD_GAPS)]) {
    assert(served.has(code), `${code} is not a state the app serves`);
  }
  for (const [state, reason] of Object.entries(LICENSING_BOARD_GAPS)) {
    assert(reason && reason.trim().length > 20, `${state} needs a reason`);
  }
});

test("[licensing boards] names are non-empty single lines and websites are https addresses", () => {
  for (const [state, board] of Object.entries(LICENSING_BOARDS)) {
    assert(board.name.trim() === board.name && board.name.length > 10, `${state}: ${board.name}`);
    assert(!/\s{2}|[\n<>]/.test(board.name), `${state}: ${board.name}`);
    if (board.url === undefined) continue;
    const url = new URL(board.url);
    assertEquals(url.protocol, "https:", `${state}: ${board.url}`);
    assertEquals(url.href, board.url, `${state}: write the URL as the parser does`);
    assert(!url.search && !url.hash && !url.username, `${state}: ${board.url}`);
  }
  assertEquals(
    licensingBoard("TX")?.name,
    "Texas Board of Professional Engineers and Land Surveyors",
  );
  assertEquals(
    licensingBoard("CA")?.name,
    "Board for Professional Engineers, Land Surveyors, and Geologists",
  );
  assertEquals(licensingBoard("FL")?.name, "Board of Professional Surveyors and Mappers");
});

test("[licensing boards] a town's FAQ names the state's board; a state without one keeps the generic wording", () => {
  const tx = faqText("TX");
  assertStringIncludes(tx, "Who licenses land surveyors in Texas?");
  assertStringIncludes(
    tx,
    "In Texas, land surveyors are licensed by the Texas Board of Professional Engineers and Land Surveyors.",
  );
  assertStringIncludes(tx, "Its website is https://pels.texas.gov/.");
  assert(!tx.includes("state licensing board"), tx);

  // A checked name without a checked website says no website.
  assert(!faqText("CO").includes("Its website"), faqText("CO"));

  for (const state of Object.keys(LICENSING_BOARD_GAPS) as StateCode[]) {
    const text = faqText(state);
    assertStringIncludes(text, "state licensing board");
    assert(!text.includes("land surveyors are licensed by the"), text);
  }
  assertStringIncludes(faqText("DC"), "Who licenses land surveyors in the District of Columbia?");
});

test("[licensing boards] flood questions send people to FEMA's map and never say whether the town is in a flood zone", () => {
  for (const type of [null, ...PRICED_SURVEY_TYPES]) {
    const text = faqText("TX", type);
    assertStringIncludes(text, "msc.fema.gov");
    assertStringIncludes(text, "Meridian has no flood-zone data for Springfield");
    // A statement, not the question "…whether my building in Springfield is in a flood zone?"
    assert(!/\b(is|is not|isn't|lies) (not )?in a (FEMA )?flood zone[.,;]/i.test(text), text);
  }
  const ec = townFaqs({
    townName: "Springfield",
    state: "TX",
    prices: prices(),
    firmCount: 1,
    type: "elevation_certificate",
  });
  assertEquals(ec[0].q, "How much does an elevation certificate cost in Springfield, TX?");
  assertEquals(ec[1].q, "What is an elevation certificate for, and when is one needed in Texas?");
  const alta = faqText("TX", "alta");
  assertStringIncludes(alta, "What is an ALTA/NSPS survey for, and when is one needed in Texas?");
  assertStringIncludes(alta, "Lenders and title insurers ask for one on commercial property");
});
