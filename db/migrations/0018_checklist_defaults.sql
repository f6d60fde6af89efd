-- Version 1 of the checklist template of each survey type: what a crew records on site (the
-- same items as lib/checklists.ts DEFAULT_CHECKLIST_TEMPLATES; tests/db/checklists_test.ts
-- compares them). Admins edit them on /admin/checklists, which saves version n + 1;
-- instantiated checklists keep the version they were copied from. ALTA's Table A items are
-- added per survey from the request (db/checklists.ts instantiateChecklist).
-- Units: ft (US survey feet), ea (a count), sq in.
insert into checklist_templates (survey_type, version, items) values
  ('boundary', 1, '[
      {
        "key": "deed_research",
        "label": "Deed of record and adjoiners'' deeds researched",
        "kind": "check",
        "help": "Vesting deed, prior deeds in the chain and the adjoining owners'' deeds.",
        "isRequired": true
      },
      {
        "key": "plat_research",
        "label": "Recorded plat and prior surveys reviewed",
        "kind": "check",
        "help": "Subdivision plat, prior surveys of record and county GIS.",
        "isRequired": true
      },
      {
        "key": "control_established",
        "label": "Control and basis of bearings established",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "monuments_found",
        "label": "Monuments found",
        "kind": "number",
        "unit": "ea",
        "help": "Count every monument recovered and describe them below.",
        "isRequired": true
      },
      {
        "key": "monuments_set",
        "label": "Monuments set",
        "kind": "number",
        "unit": "ea",
        "help": "Enter 0 if none were set.",
        "isRequired": true
      },
      {
        "key": "monument_descriptions",
        "label": "Monuments: type, size, cap stamp and condition",
        "kind": "text",
        "help": "For example: 5/8\" iron rod with cap ''RPLS 1234'', found 0.2 ft below grade, good condition.",
        "isRequired": true
      },
      {
        "key": "corners_located",
        "label": "Every property corner located or set",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "encroachments",
        "label": "Encroachments observed (fences, sheds, driveways, overhangs)",
        "kind": "text",
        "help": "Write ''None observed'' if there are none.",
        "isRequired": true
      },
      {
        "key": "occupation_located",
        "label": "Fence lines and lines of occupation located",
        "kind": "check",
        "isRequired": false
      },
      {
        "key": "corner_photos",
        "label": "Photos of each corner with its monument",
        "kind": "photo",
        "help": "One photo per corner, showing the monument and its surroundings.",
        "isRequired": true
      },
      {
        "key": "field_notes",
        "label": "Field notes for the office",
        "kind": "text",
        "isRequired": false
      }
    ]'::jsonb),
  ('elevation_certificate', 1, '[
      {
        "key": "flood_zone",
        "label": "Flood zone and base flood elevation from the FIRM panel",
        "kind": "text",
        "help": "FIRM panel number, effective date, zone and BFE.",
        "isRequired": true
      },
      {
        "key": "benchmark",
        "label": "Benchmark used (designation and vertical datum)",
        "kind": "text",
        "help": "For example: NGS PID AB1234, NAVD 88.",
        "isRequired": true
      },
      {
        "key": "benchmark_elevation",
        "label": "Benchmark elevation",
        "kind": "number",
        "unit": "ft",
        "isRequired": true
      },
      {
        "key": "building_diagram",
        "label": "Building diagram number (1 to 9)",
        "kind": "number",
        "help": "From the FEMA Elevation Certificate instructions.",
        "isRequired": true
      },
      {
        "key": "lowest_floor",
        "label": "Lowest floor: top of bottom floor (C2.a)",
        "kind": "number",
        "unit": "ft",
        "help": "Including a basement, crawlspace or enclosure floor.",
        "isRequired": true
      },
      {
        "key": "next_higher_floor",
        "label": "Top of the next higher floor (C2.b)",
        "kind": "number",
        "unit": "ft",
        "isRequired": false
      },
      {
        "key": "lowest_adjacent_grade",
        "label": "Lowest adjacent grade next to the building (C2.e)",
        "kind": "number",
        "unit": "ft",
        "isRequired": true
      },
      {
        "key": "highest_adjacent_grade",
        "label": "Highest adjacent grade next to the building (C2.f)",
        "kind": "number",
        "unit": "ft",
        "isRequired": true
      },
      {
        "key": "machinery",
        "label": "Lowest machinery or equipment serving the building (C2.g)",
        "kind": "number",
        "unit": "ft",
        "help": "Furnace, water heater, A/C unit, elevator equipment, electrical panel.",
        "isRequired": true
      },
      {
        "key": "machinery_description",
        "label": "Machinery and equipment observed and where",
        "kind": "text",
        "isRequired": false
      },
      {
        "key": "flood_openings",
        "label": "Permanent flood openings",
        "kind": "number",
        "unit": "ea",
        "help": "Enter 0 if there are none.",
        "isRequired": false
      },
      {
        "key": "flood_openings_area",
        "label": "Net area of the flood openings",
        "kind": "number",
        "unit": "sq in",
        "isRequired": false
      },
      {
        "key": "photo_front",
        "label": "Building photo: front",
        "kind": "photo",
        "isRequired": true
      },
      {
        "key": "photo_rear",
        "label": "Building photo: rear",
        "kind": "photo",
        "isRequired": true
      },
      {
        "key": "photo_left",
        "label": "Building photo: left side",
        "kind": "photo",
        "isRequired": true
      },
      {
        "key": "photo_right",
        "label": "Building photo: right side",
        "kind": "photo",
        "isRequired": true
      }
    ]'::jsonb),
  ('topographic', 1, '[
      {
        "key": "control",
        "label": "Control points and benchmark used (with datum)",
        "kind": "text",
        "help": "For example: two GNSS control points, NAVD 88 via NGS PID AB1234.",
        "isRequired": true
      },
      {
        "key": "limits_walked",
        "label": "Limits of the survey area walked",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "contour_interval",
        "label": "Contour interval",
        "kind": "number",
        "unit": "ft",
        "isRequired": true
      },
      {
        "key": "spot_elevations",
        "label": "Spot elevations collected across the site",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "breaklines",
        "label": "Breaklines shot (top and toe of slopes, ditches, curbs, swales)",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "structures",
        "label": "Buildings, walls and other structures located",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "hardscape",
        "label": "Pavement, sidewalks and driveways located",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "utilities",
        "label": "Visible utilities located (manholes, valves, poles, meters)",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "inverts",
        "label": "Manhole and storm structure inverts measured",
        "kind": "text",
        "help": "Structure, rim elevation and each pipe''s invert, size and direction.",
        "isRequired": false
      },
      {
        "key": "trees",
        "label": "Trees located over the requested size",
        "kind": "number",
        "unit": "ea",
        "isRequired": false
      },
      {
        "key": "site_photos",
        "label": "Site photos",
        "kind": "photo",
        "isRequired": true
      },
      {
        "key": "field_notes",
        "label": "Field notes for the office",
        "kind": "text",
        "isRequired": false
      }
    ]'::jsonb),
  ('alta', 1, '[
      {
        "key": "title_commitment",
        "label": "Title commitment and Schedule B-II documents reviewed",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "record_research",
        "label": "Record descriptions and adjoiners'' deeds researched",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "control_established",
        "label": "Control and basis of bearings established",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "monuments_found",
        "label": "Boundary monuments found",
        "kind": "number",
        "unit": "ea",
        "isRequired": true
      },
      {
        "key": "corners_located",
        "label": "Every boundary corner located",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "improvements",
        "label": "Buildings and other improvements located",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "access",
        "label": "Access to public roads observed",
        "kind": "text",
        "help": "Name of the street and how the property reaches it.",
        "isRequired": true
      },
      {
        "key": "easement_evidence",
        "label": "Evidence of easements and servitudes observed",
        "kind": "text",
        "help": "Utility lines, paths, drives crossing the property; ''None observed'' if none.",
        "isRequired": true
      },
      {
        "key": "encroachments",
        "label": "Encroachments observed, onto and from the property",
        "kind": "text",
        "help": "Write ''None observed'' if there are none.",
        "isRequired": true
      },
      {
        "key": "cemeteries",
        "label": "Evidence of cemeteries or burial grounds checked",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "water_features",
        "label": "Springs, ponds, lakes or watercourses observed",
        "kind": "text",
        "isRequired": false
      },
      {
        "key": "site_photos",
        "label": "Site photos",
        "kind": "photo",
        "isRequired": true
      }
    ]'::jsonb),
  ('construction', 1, '[
      {
        "key": "plan_set",
        "label": "Plan set and revision staked from",
        "kind": "text",
        "help": "Sheet numbers, revision and date.",
        "isRequired": true
      },
      {
        "key": "control_verified",
        "label": "Control points verified against the plan",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "offset_distance",
        "label": "Offset distance of the stakes",
        "kind": "number",
        "unit": "ft",
        "isRequired": true
      },
      {
        "key": "points_staked",
        "label": "Points staked",
        "kind": "number",
        "unit": "ea",
        "isRequired": true
      },
      {
        "key": "dimensions_checked",
        "label": "Staked dimensions checked (diagonals and ties)",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "grade_marked",
        "label": "Cut/fill or grade marked on the stakes",
        "kind": "check",
        "isRequired": false
      },
      {
        "key": "cut_sheet_delivered",
        "label": "Cut sheet given to the contractor",
        "kind": "check",
        "isRequired": false
      },
      {
        "key": "contractor_contact",
        "label": "Contractor on site (name and phone)",
        "kind": "text",
        "isRequired": false
      },
      {
        "key": "stake_photos",
        "label": "Photos of the staked layout",
        "kind": "photo",
        "isRequired": true
      }
    ]'::jsonb),
  ('subdivision', 1, '[
      {
        "key": "parent_tract_research",
        "label": "Parent tract deed and plats researched",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "control_established",
        "label": "Control and basis of bearings established",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "boundary_monuments_found",
        "label": "Boundary monuments found",
        "kind": "number",
        "unit": "ea",
        "isRequired": true
      },
      {
        "key": "lots_laid_out",
        "label": "Lots laid out",
        "kind": "number",
        "unit": "ea",
        "isRequired": true
      },
      {
        "key": "lot_corners_set",
        "label": "Lot corners set",
        "kind": "number",
        "unit": "ea",
        "isRequired": true
      },
      {
        "key": "right_of_way",
        "label": "Road rights-of-way and centerlines staked",
        "kind": "check",
        "isRequired": true
      },
      {
        "key": "easements",
        "label": "Utility and drainage easements located",
        "kind": "text",
        "isRequired": true
      },
      {
        "key": "closure",
        "label": "Field traverse closure (precision)",
        "kind": "text",
        "help": "For example: 1:25,000.",
        "isRequired": false
      },
      {
        "key": "corner_photos",
        "label": "Photos of the set corners",
        "kind": "photo",
        "isRequired": true
      },
      {
        "key": "field_notes",
        "label": "Field notes for the office",
        "kind": "text",
        "isRequired": false
      }
    ]'::jsonb)
on conflict (survey_type, version) do nothing;
