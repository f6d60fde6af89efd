/**
 * Copy for the six service pages. Prices, turnaround and paths come from `SURVEY_TYPE_INFO`
 * so the landing cards, service pages and quote flow can never disagree.
 */
import {
  SURVEY_TYPE_INFO,
  SURVEY_TYPES,
  type SurveyType,
  type SurveyTypeInfo,
} from "./survey_types.ts";

/** A question and its answer, shown as a <details> disclosure. */
export interface Faq {
  q: string;
  a: string;
}

/** Everything a service page says beyond the shared survey-type facts. */
export interface ServiceContent {
  type: SurveyTypeInfo;
  /** Plural page heading, e.g. "Boundary Surveys". */
  heading: string;
  /** The survey in running text with its article, e.g. "a boundary survey". */
  noun: string;
  /** <title> text (the layout appends "| Meridian"). */
  title: string;
  /** Meta description, under ~160 characters. */
  description: string;
  /** One-sentence promise under the heading. */
  lead: string;
  /** "What is it" paragraphs. */
  what: string[];
  /** Situations in which people order it. */
  when: string[];
  /** What the client receives. */
  deliverables: string[];
  /** What the turnaround depends on. */
  turnaroundNote: string;
  /** What moves the price up or down. */
  priceFactors: string[];
  faqs: Faq[];
}

const CONTENT: Record<SurveyType, Omit<ServiceContent, "type">> = {
  boundary: {
    heading: "Boundary Surveys",
    noun: "a boundary survey",
    title: "Boundary Surveys — Find and Mark Your Property Lines",
    description:
      "Licensed boundary surveys from $385: property corners found or set, lines and encroachments shown on a sealed plat, typically in 5-10 business days.",
    lead:
      "Know exactly where your property begins and ends before you build, buy, or talk to a neighbor about a fence.",
    what: [
      "A boundary survey establishes the legal lines of your parcel on the ground. A licensed land surveyor researches your deed, the recorded plat and the deeds of the properties around you, then locates the monuments (iron rods, pipes or concrete markers) that earlier surveyors left at your corners.",
      "The surveyor measures between those monuments, resolves any conflicts between the records and what is found in the field, and sets new marked rods where corners are missing. You receive a signed and sealed drawing showing your lines, corners, recorded easements and any fences, sheds or driveways that sit on or across a line.",
    ],
    when: [
      "You are building a fence, wall, pool, driveway or addition near a property line.",
      "A neighbor disagrees about where the line is, or a fence or tree is in dispute.",
      "You are buying land or a home and want to know what you are actually getting.",
      "Your permit office, lender or title company asks for a current survey.",
      "You plan to sell or divide part of your lot.",
    ],
    deliverables: [
      "A signed and sealed boundary survey plat (PDF; paper copies on request).",
      "Property corners found or set, with marked rods or caps and flagging you can see.",
      "Recorded easements and rights-of-way that affect the property, shown on the drawing.",
      "Visible improvements near the lines and any apparent encroachments, noted and measured.",
      "A check of your deed's legal description against what was found in the field.",
    ],
    turnaroundNote:
      "Most boundary surveys are delivered 5-10 business days after your surveyor schedules the field visit. Older rural tracts described by metes and bounds can need extra records research.",
    priceFactors: [
      "Lot size and the number of corners to find or set",
      "Terrain, tree cover and how easy the lines are to walk",
      "How complete and consistent the recorded deeds and plats are",
      "Whether corners are missing and must be re-established",
    ],
    faqs: [
      {
        q: "Do I need to be home while the surveyor works?",
        a: "No. The surveyor needs to walk your property lines, not enter your home. Let them know about locked gates, dogs or anything else that affects access when they call to schedule.",
      },
      {
        q: "Will the surveyor mark my property corners?",
        a: "Yes. Corners the surveyor finds or sets are marked with flagging or a stake so you can see them, and new corner markers carry the surveyor's license number.",
      },
      {
        q: "Is the survey my lender did at closing the same thing?",
        a: "Usually not. A mortgage inspection or plot plan only shows the approximate position of buildings and does not set corners. It cannot be relied on to place a fence or settle a line question; a boundary survey can.",
      },
      {
        q: "What happens if the survey shows my neighbor's fence on my land?",
        a: "The surveyor documents what is on the ground and where the record lines are. Many owners simply share the plat with their neighbor; others agree a lot line adjustment or speak to a real estate attorney. A surveyor measures and reports, and only a court can decide a contested ownership claim.",
      },
      {
        q: "How long is a boundary survey good for?",
        a: "Your record lines do not move, but fences, buildings and neighbors do. Lenders and title companies generally want a survey that reflects current conditions, so if anything has been built or changed since the last survey, ask for an update.",
      },
    ],
  },
  topographic: {
    heading: "Topographic Surveys",
    noun: "a topographic survey",
    title: "Topographic Surveys — Contours and Site Data for Design",
    description:
      "Topographic surveys from $485: contours, spot elevations, trees, structures and visible utilities in sealed PDF and CAD, typically in 5-10 business days.",
    lead:
      "Give your architect, engineer or builder an accurate picture of the ground before a single line is designed.",
    what: [
      "A topographic survey maps the shape of your land and everything on it. The surveyor measures hundreds of points with GNSS receivers and a total station (and, on open sites, sometimes a drone) to record elevations, slopes and the natural and built features that a design must work around.",
      "The result is a drawing with contour lines at an agreed interval, spot elevations, buildings and their floor elevations, paving, trees, walls and the visible parts of utilities such as manholes, valves and meters, all tied to a stated vertical datum.",
    ],
    when: [
      "You are designing a new home, addition, pool, garage or retaining wall.",
      "Your site needs a grading, drainage or stormwater plan.",
      "The building department asks for a site plan with existing grades.",
      "An engineer is designing a septic system, driveway or foundation.",
      "A commercial site is moving into civil design.",
    ],
    deliverables: [
      "A signed and sealed topographic map (PDF).",
      "An AutoCAD (DWG) file your architect or engineer can design on directly.",
      "Contours at the agreed interval (typically 1 ft for homes, 2 ft or more for acreage).",
      "Spot elevations, finished floor elevations, trees above an agreed trunk size, structures, paving and visible utility features.",
      "The vertical datum (usually NAVD 88) and benchmark used, so later work ties in.",
    ],
    turnaroundNote:
      "Most topographic surveys are delivered 5-10 business days after the field visit is scheduled. Large or heavily wooded sites take longer to collect.",
    priceFactors: [
      "Acreage and how much detail the area holds",
      "Tree cover and terrain, which slow field collection",
      "Contour interval and the trunk size of trees to be located",
      "Whether property lines are added (a combined boundary and topographic survey)",
    ],
    faqs: [
      {
        q: "Does a topographic survey show my property lines?",
        a: "Not by default. Most architects need both, so ask for a combined boundary and topographic survey in your request and the quote will cover the two.",
      },
      {
        q: "Will it show underground pipes and cables?",
        a: "It shows the visible evidence of utilities: manholes, valves, meters, poles and paint marks. Call 811 before any digging; for buried lines on private property your surveyor can coordinate a private utility locate.",
      },
      {
        q: "Which contour interval should I ask for?",
        a: "One foot suits most residential lots; two feet or more suits larger or steeper acreage. If you are unsure, your architect or engineer will know, and your surveyor will confirm it when they call.",
      },
      {
        q: "Can my designer get a CAD file?",
        a: "Yes. Every topographic survey includes a DWG file alongside the sealed PDF.",
      },
    ],
  },
  alta: {
    heading: "ALTA/NSPS Land Title Surveys",
    noun: "an ALTA/NSPS survey",
    title: "ALTA/NSPS Surveys — Commercial Land Title Surveys",
    description:
      "ALTA/NSPS land title surveys from $1,285 for commercial purchases and loans: Table A items, title exceptions plotted, certified to your lender, in 7-14 business days.",
    lead:
      "The survey commercial lenders and title insurers rely on, prepared to the ALTA/NSPS standards and certified to every party at closing.",
    what: [
      "An ALTA/NSPS Land Title Survey is the most thorough survey a property can get. It follows the Minimum Standard Detail Requirements adopted by the American Land Title Association and the National Society of Professional Surveyors, currently the 2021 standards.",
      "It combines a full boundary survey with a review of your title commitment: every recorded easement and restriction listed as an exception is located and shown, or noted as not affecting the property. Your lender or buyer then chooses optional Table A items, such as zoning setbacks, flood zone, building footprints and height, parking counts and utilities, to fit the transaction.",
    ],
    when: [
      "You are buying, selling or refinancing commercial, industrial or multi-family property.",
      "Your lender requires an ALTA survey to close a commercial loan.",
      "Your title insurer needs one to remove the standard survey exception and issue extended coverage.",
      "You are doing due diligence on a 1031 exchange or investment acquisition.",
    ],
    deliverables: [
      "A signed and sealed ALTA/NSPS plat, certified to the lender, title company and buyer you name.",
      "Every Schedule B exception in the title commitment plotted or addressed in the notes.",
      "The Table A items agreed with your lender, such as zoning, flood zone, building dimensions and parking.",
      "Boundary corners found or set, with access, encroachments and gaps or overlaps noted.",
      "PDF and CAD files for your closing team.",
    ],
    turnaroundNote:
      "ALTA surveys take 7-14 business days. The clock starts once your surveyor has the title commitment and its recorded documents, so send them as early as you can.",
    priceFactors: [
      "Site size, number of buildings and density of improvements",
      "Which Table A items your lender requires",
      "The number of title exceptions and recorded documents to review",
      "Closing deadline, if it is shorter than the normal schedule",
    ],
    faqs: [
      {
        q: "What is Table A?",
        a: "Table A is the list of optional items in the ALTA/NSPS standards, such as zoning information, flood zone classification, building area and height, parking spaces and utilities. Your lender's survey requirements usually specify which items they need; send them with your request.",
      },
      {
        q: "What do you need from me to start?",
        a: "The title commitment with copies of its Schedule B documents, your lender's survey requirements and Table A list, the names of the parties to certify to, and a contact who can arrange access to the site.",
      },
      {
        q: "Who is the survey certified to?",
        a: "Normally the buyer or borrower, the lender (with its successors and assigns) and the title insurance company. Give us the exact names at the start: changing certifications after delivery means a revised plat.",
      },
      {
        q: "Can it be done faster for a tight closing?",
        a: "Often, yes. Put your closing date in the request; your surveyor will tell you when they call whether an expedited schedule is possible and what it costs.",
      },
    ],
  },
  elevation_certificate: {
    heading: "Elevation Certificates",
    noun: "an elevation certificate",
    title: "Elevation Certificates — FEMA Flood Zone Surveys",
    description:
      "FEMA Elevation Certificates from $285, completed and sealed by a licensed surveyor in 3-5 business days, for flood insurance rating and map amendments.",
    lead:
      "The FEMA form that shows how high your building sits above the expected flood level, ready for your insurance agent in days.",
    what: [
      "An Elevation Certificate is the official FEMA form that records a building's key elevations: the lowest floor, the garage, the ground next to the building and machinery such as air-conditioning units, compared with the Base Flood Elevation for its flood zone.",
      "A licensed surveyor measures those elevations from a known benchmark, photographs the building as the form requires and completes and seals the certificate. Insurance agents use it to rate flood policies, and owners use it to support a Letter of Map Amendment when a building sits above the mapped flood level.",
    ],
    when: [
      "You are buying a home in a FEMA Special Flood Hazard Area (zones such as A, AE or VE).",
      "Your insurance agent or lender asks for an Elevation Certificate.",
      "You want to check whether your flood insurance premium could be lower.",
      "You are applying to FEMA for a Letter of Map Amendment (LOMA).",
      "Your floodplain manager requires one for new construction or a substantial improvement.",
    ],
    deliverables: [
      "A completed, signed and sealed FEMA Elevation Certificate (PDF).",
      "The photographs of the building the form requires.",
      "The flood zone, Base Flood Elevation and vertical datum used, stated on the certificate.",
    ],
    turnaroundNote:
      "Elevation certificates are our fastest survey: 3-5 business days after the site visit is scheduled.",
    priceFactors: [
      "Distance to the nearest usable benchmark",
      "Building type, such as crawlspace, slab or elevated on piers",
      "Additional structures on the same property",
    ],
    faqs: [
      {
        q: "Will an Elevation Certificate lower my flood insurance?",
        a: "It can. Since FEMA introduced Risk Rating 2.0 an Elevation Certificate is optional for many National Flood Insurance Program policies, but you may still submit one when it could reduce your premium, and many private flood insurers ask for one. Your agent can run the numbers both ways.",
      },
      {
        q: "My home might already have one. How do I check?",
        a: "Ask the seller or previous owner, your insurance agent and your community's floodplain management office, which keeps certificates for many newer buildings. If one exists and nothing about the building has changed, you may not need a new one.",
      },
      {
        q: "Does the surveyor need to get inside?",
        a: "Usually only briefly, to measure the floor in a garage or check a crawlspace or basement. Most of the work is outside around the building.",
      },
      {
        q: "Does an Elevation Certificate expire?",
        a: "No. It stays valid as long as the building does not change. An addition, raised floor or relocated machinery means a new certificate.",
      },
    ],
  },
  construction: {
    heading: "Construction Surveys",
    noun: "a construction survey",
    title: "Construction Surveys — Staking, Layout and As-Builts",
    description:
      "Construction staking and as-built surveys from $685: building corners, offsets, grades and utilities laid out from your plans by a licensed surveyor.",
    lead:
      "Put your building, grades and utilities exactly where the approved plans say, and prove it afterwards.",
    what: [
      "Construction surveying turns a site plan into marks on the ground. Before work starts, your surveyor stakes the building corners and offsets, finished floor and grade elevations, and the lines of driveways, curbs and utilities, so your contractor builds in the right place at the right height.",
      "During and after construction the surveyor checks what was built: a foundation location or form board survey before concrete is poured, and an as-built survey at the end that your building department or lender may require for a certificate of occupancy.",
    ],
    when: [
      "Your foundation is about to be formed or poured.",
      "Your municipality requires a form board or foundation location survey.",
      "Utilities, driveways or retaining walls need to be laid out to plan.",
      "Grading needs cut and fill stakes.",
      "You need an as-built survey to close out permits or a construction loan.",
    ],
    deliverables: [
      "Stakes or hubs at building corners and offsets, marked with cut/fill and station information.",
      "A staking report listing every point set and its design values.",
      "Foundation location or form board certificate where required.",
      "An as-built drawing (PDF and CAD) when the work is complete.",
    ],
    turnaroundNote:
      "Staking visits are booked around your construction schedule; the first visit is typically within 5-10 business days of your request, and as-built drawings follow within days of the final visit.",
    priceFactors: [
      "Number of site visits and points to stake",
      "Whether you can supply CAD files of the approved plans",
      "Site size and access for equipment",
      "Re-staking after stakes are disturbed",
    ],
    faqs: [
      {
        q: "What do I need to provide?",
        a: "The approved, stamped site plan and, ideally, the designer's CAD file. A current boundary survey is also needed; if you do not have one, your surveyor can do it first.",
      },
      {
        q: "How many visits will I need?",
        a: "A simple house usually needs a layout visit, a foundation check and an as-built visit. Commercial projects need more. Your quote is based on the visits you describe, and your surveyor will confirm them when they call.",
      },
      {
        q: "What if stakes get knocked out?",
        a: "It happens on busy sites. Re-staking is billed as an extra visit, so ask your contractor to protect the stakes and offset hubs.",
      },
    ],
  },
  subdivision: {
    heading: "Subdivision Surveys",
    noun: "a subdivision survey",
    title: "Subdivision Surveys — Lot Splits and Plats",
    description:
      "Subdivision and lot-split surveys quoted to your project: new lot lines, monuments and a plat prepared for county or city approval by a licensed surveyor.",
    lead:
      "Split a parcel into new, saleable lots with a plat your county or city will approve and record.",
    what: [
      "A subdivision survey divides one parcel into two or more lots. The surveyor first establishes the parent parcel's boundary, then designs the new lot lines around zoning rules for minimum lot size, frontage, setbacks and access, and prepares new legal descriptions for each lot.",
      "The surveyor drafts the plat your local rules require, whether a minor lot split, a short plat or a full subdivision, helps you respond to planning review comments, and sets monuments at the new corners once the plat is approved.",
    ],
    when: [
      "You want to split off a lot to sell or build on.",
      "Heirs are dividing inherited land.",
      "You are developing a parcel into residential or commercial lots.",
      "You and a neighbor want to move the line between your lots (a lot line adjustment).",
    ],
    deliverables: [
      "A boundary survey of the parent parcel.",
      "A preliminary plat for planning review and the final plat in the format your county records.",
      "New legal descriptions for every lot.",
      "Monuments set at new lot corners.",
    ],
    turnaroundNote:
      "Subdivisions are quoted per project. Fieldwork and drafting usually take a few weeks, and local approval time varies from weeks to months; your surveyor will give you a realistic timeline with the quote.",
    priceFactors: [
      "Number of lots and total acreage",
      "Local plat requirements and the review process",
      "Whether engineering, such as roads, drainage or septic design, is needed",
      "Condition of the parent parcel's records",
    ],
    faqs: [
      {
        q: "Why is there no fixed starting price?",
        a: "A two-lot split in a rural county and a twenty-lot subdivision in a city are completely different jobs. We collect the details in your request, and a licensed surveyor who works in your county prices it, still with no upfront payment.",
      },
      {
        q: "How long does approval take?",
        a: "That depends on your county or city: a minor split can be approved administratively in a few weeks, while a major subdivision may need public hearings. Your surveyor knows the local process and will map it out for you.",
      },
      {
        q: "Do I need an engineer too?",
        a: "For simple lot splits, usually not. New roads, shared driveways, drainage or septic systems generally need a civil engineer; many of our surveyors work with one and can coordinate.",
      },
      {
        q: "Can you do a lot line adjustment between neighbors?",
        a: "Yes. A lot line adjustment moves an existing line without creating new lots, and it is normally quicker and less expensive than a subdivision.",
      },
    ],
  },
};

/** The service page content for every survey type, in `SURVEY_TYPES` order. */
export const SERVICE_PAGES: ServiceContent[] = SURVEY_TYPES.map((id) => serviceContent(id));

/** Service content by survey type. */
export function serviceContent(id: SurveyType): ServiceContent {
  return { type: SURVEY_TYPE_INFO[id], ...CONTENT[id] };
}
