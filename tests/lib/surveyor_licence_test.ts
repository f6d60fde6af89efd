/** The rule of lib/surveyor_licence.ts: what a verified firm's own edit does now, what waits. */
import { assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { licenceCheckNotice, planLicenceChange, stateNames } from "../../lib/surveyor_licence.ts";

const FIRM = {
  licenseNumber: "RPLS 1",
  licenseStates: ["OK", "TX"] as ("OK" | "TX")[],
  pendingLicenseStates: ["NM"] as "NM"[],
  pendingLicenseNumber: null,
};

test("[licence rule] added states wait, removed ones go now, a pending one taken off is withdrawn", () => {
  const plan = planLicenceChange(FIRM, { licenseStates: ["AR", "TX"], phone: "1" });
  assertEquals(plan, {
    direct: { phone: "1", licenseStates: ["TX"] },
    request: ["AR"],
    withdraw: ["NM"],
  });
});

test("[licence rule] a new number waits; giving the verified one back withdraws the pending one", () => {
  assertEquals(planLicenceChange(FIRM, { licenseNumber: "RPLS 2" }).pendingNumber, "RPLS 2");
  assertEquals(planLicenceChange(FIRM, { licenseNumber: "RPLS 2" }).direct, {});
  const withdrawn = planLicenceChange({ ...FIRM, pendingLicenseNumber: "RPLS 2" }, {
    licenseNumber: "RPLS 1",
  });
  assertEquals(withdrawn.pendingNumber, null);
  const same = planLicenceChange({ ...FIRM, pendingLicenseNumber: "RPLS 2" }, {
    licenseNumber: "RPLS 2",
  });
  assertEquals(same.pendingNumber, undefined);
});

test("[licence rule] the notice names the states and numbers in words", () => {
  assertEquals(stateNames(["IA", "OH", "TX"]), "Iowa, Ohio and Texas");
  assertEquals(
    licenceCheckNotice({ states: ["NM"], number: null, currentNumber: "RPLS 1" }),
    "Your licence in New Mexico will be checked by Meridian before you can buy or claim leads there.",
  );
  assertEquals(licenceCheckNotice({ states: [], number: null, currentNumber: null }), null);
});
