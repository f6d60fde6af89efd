/**
 * Who licenses professional land surveyors in each state the app serves (issue 24: the town
 * pages' FAQ names "the licensing board of the state").
 *
 * Where the names and addresses came from, checked on 2026-11-28: each state's licensing statute
 * or administrative code (the section creating the board, or its definition of "board"), and the
 * board's own website where one was found, read from stored public copies of those pages; every
 * name below was seen in at least one of them. A name is written as the statute or the board's
 * own site writes it (so some carry the state's name and some do not).
 *
 * `url` is set only where a stored copy of the board's own site (its home, about or land
 * surveyor page, on a host or path that belongs to the board) was seen; a site whose current
 * address could not be confirmed (a department that moved its pages, a page last seen years ago)
 * has none. A state missing from LICENSING_BOARDS is listed in LICENSING_BOARD_GAPS with why; its
 * pages keep the generic wording ("{State}'s state licensing board"). The product never invents
 * data: an entry is added only when it is checked.
 *
 * In Illinois, Michigan and New York the licence is issued by a state department (its board
 * advises), so the entry names the department.
 */
import type { StateCode } from "./survey_options.ts";

/** The body that issues land surveyor licences in a state. */
export interface LicensingBoard {
  /** Official name, e.g. "Texas Board of Professional Engineers and Land Surveyors". */
  name: string;
  /** The board's own website (https), when verified. */
  url?: string;
}

/** Checked licensing bodies by state code (see the header for sources and the date checked). */
export const LICENSING_BOARDS: Readonly<Partial<Record<StateCode, LicensingBoard>>> = {
  AL: {
    name: "Alabama Board of Licensure for Professional Engineers and Land Surveyors",
    url: "https://bels.alabama.gov/",
  },
  AK: { name: "State Board of Registration for Architects, Engineers, and Land Surveyors" },
  AZ: { name: "State Board of Technical Registration", url: "https://btr.az.gov/" },
  AR: {
    name: "Arkansas State Board of Licensure for Professional Engineers and Professional Surveyors",
    url:
      "https://labor.arkansas.gov/licensing/state-board-of-licensure-for-professional-engineers-and-professional-surveyors/",
  },
  CA: {
    name: "Board for Professional Engineers, Land Surveyors, and Geologists",
    url: "https://www.bpelsg.ca.gov/",
  },
  CO: {
    name:
      "State Board of Licensure for Architects, Professional Engineers, and Professional Land Surveyors",
  },
  CT: { name: "State Board of Examiners for Professional Engineers and Land Surveyors" },
  DE: { name: "Delaware Board of Professional Land Surveyors" },
  FL: { name: "Board of Professional Surveyors and Mappers" },
  GA: {
    name: "Georgia Professional Engineers and Land Surveyors Board",
    url: "https://pels.georgia.gov/",
  },
  HI: { name: "Board of Professional Engineers, Architects, Surveyors, and Landscape Architects" },
  ID: {
    name: "Idaho Board of Licensure of Professional Engineers and Professional Land Surveyors",
  },
  IL: { name: "Illinois Department of Financial and Professional Regulation" },
  IN: { name: "State Board of Registration for Professional Surveyors" },
  IA: {
    name: "Iowa Engineering and Land Surveying Examining Board",
    url: "https://dial.iowa.gov/about-dial/boards/engineering-land-surveying/about",
  },
  KS: { name: "Kansas State Board of Technical Professions" },
  KY: {
    name: "Kentucky State Board of Licensure for Professional Engineers and Land Surveyors",
    url: "https://kyboels.ky.gov/",
  },
  LA: {
    name: "Louisiana Professional Engineering and Land Surveying Board",
    url: "https://www.lapels.com/",
  },
  ME: {
    name: "Board of Licensure for Professional Land Surveyors",
    url:
      "https://www.maine.gov/pfr/professionallicensing/professions/board-licensure-professional-land-surveyors",
  },
  MD: { name: "State Board for Professional Land Surveyors" },
  MA: { name: "Board of Registration of Professional Engineers and Land Surveyors" },
  MI: { name: "Michigan Department of Licensing and Regulatory Affairs" },
  MN: {
    name:
      "Board of Architecture, Engineering, Land Surveying, Landscape Architecture, Geoscience, and Interior Design",
    url: "https://mn.gov/aelslagid/",
  },
  MS: {
    name: "Mississippi Board of Licensure for Professional Engineers and Surveyors",
    url: "https://www.pepls.ms.gov/",
  },
  MO: {
    name:
      "Missouri Board for Architects, Professional Engineers, Professional Land Surveyors and Professional Landscape Architects",
  },
  MT: {
    name: "Montana Board of Professional Engineers and Professional Land Surveyors",
    url: "https://boards.bsd.dli.mt.gov/professional-engineers-land-surveyors/board-information/",
  },
  NE: {
    name: "Nebraska State Board of Examiners for Land Surveyors",
    url: "https://nbels.nebraska.gov/",
  },
  NV: { name: "State Board of Professional Engineers and Land Surveyors" },
  NJ: { name: "New Jersey State Board of Professional Engineers and Land Surveyors" },
  NM: {
    name: "New Mexico Board of Licensure for Professional Engineers and Professional Surveyors",
    url: "https://www.sblpes.state.nm.us/",
  },
  NY: { name: "New York State Education Department", url: "https://www.op.nysed.gov/" },
  NC: {
    name: "North Carolina Board of Examiners for Engineers and Surveyors",
    url: "https://www.ncbels.org/",
  },
  ND: {
    name: "North Dakota State Board of Registration for Professional Engineers and Land Surveyors",
    url: "https://www.ndpelsboard.org/",
  },
  OH: {
    name: "State Board of Registration for Professional Engineers and Surveyors",
    url: "https://peps.ohio.gov/",
  },
  OK: { name: "Oklahoma State Board of Licensure for Professional Engineers and Land Surveyors" },
  OR: { name: "Oregon State Board of Examiners for Engineering and Land Surveying" },
  PA: {
    name: "State Registration Board for Professional Engineers, Land Surveyors and Geologists",
  },
  RI: { name: "Board of Registration for Professional Land Surveyors" },
  SC: {
    name: "South Carolina State Board of Registration for Professional Engineers and Surveyors",
  },
  SD: { name: "South Dakota Board of Technical Professions" },
  TN: {
    name: "Tennessee Board of Examiners for Land Surveyors",
    url: "https://www.tn.gov/commerce/regboards/surveyors.html",
  },
  TX: {
    name: "Texas Board of Professional Engineers and Land Surveyors",
    url: "https://pels.texas.gov/",
  },
  VT: { name: "Board of Land Surveyors" },
  VA: {
    name:
      "Virginia Board for Architects, Professional Engineers, Land Surveyors, Certified Interior Designers and Landscape Architects",
  },
  WA: {
    name: "Board of Registration for Professional Engineers and Land Surveyors",
    url: "https://brpels.wa.gov/",
  },
  WV: { name: "West Virginia Board of Professional Surveyors" },
  WI: {
    name:
      "Examining Board of Architects, Landscape Architects, Professional Engineers, Designers, Professional Land Surveyors, and Registered Interior Designers",
  },
  WY: { name: "Wyoming Board of Professional Engineers and Professional Land Surveyors" },
};

/**
 * Served states with no entry in LICENSING_BOARDS, and why: their pages keep the generic
 * wording until someone checks them.
 */
export const LICENSING_BOARD_GAPS: Readonly<Partial<Record<StateCode, string>>> = {
  DC: "Land surveyor licences come from the Board of Professional Engineering (the D.C. Code " +
    "calls it the Board of Professional Engineers), and property-line surveys also need " +
    "registration with the Office of the Surveyor: no single name answers the question truly.",
  NH: "A 2024 bill (HB 1286) would merge the Board of Licensure for Land Surveyors into a Board " +
    "of Professional Engineers and Land Surveyors; whether it became law was not confirmed.",
  UT: "Licences are issued by the Utah division of (occupational and) professional licensing " +
    "with the Professional Engineers and Professional Land Surveyors Licensing Board; the " +
    "division's current name was not confirmed.",
};

/** The checked licensing body of `state`, or undefined when it has not been checked. */
export function licensingBoard(state: StateCode): LicensingBoard | undefined {
  return LICENSING_BOARDS[state];
}
