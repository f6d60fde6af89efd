import { assertEquals } from "../_assert.ts";
import {
  formatDecimal,
  formatInteger,
  formatOneDecimal,
  formatTwoDecimals,
} from "../../lib/numbers.ts";

const cases = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.4,
  38.5,
  999.999,
  1234.567,
  1234567.6,
  -98765.4321,
  NaN,
  Infinity,
];

Deno.test("[numbers] remembered answers read exactly as Intl's, zeros and signs included", () => {
  const intl = {
    integer: new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }),
    one: new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }),
    decimal: new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }),
    two: new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  };
  // Twice over, in both orders, so a remembered answer for one value is never given for another
  // (0 after -0, and -0 after 0, included), then past the memory's size and back.
  const values = [...cases, ...cases.toReversed()];
  for (let i = 0; i < 2500; i++) values.push(i * 1.37);
  values.push(...cases);
  for (const n of values) {
    assertEquals(
      formatInteger(n),
      intl.integer.format(n),
      `formatInteger(${Object.is(n, -0) ? "-0" : n})`,
    );
    assertEquals(formatOneDecimal(n), intl.one.format(n), `formatOneDecimal(${n})`);
    assertEquals(formatDecimal(n), intl.decimal.format(n), `formatDecimal(${n})`);
    assertEquals(formatTwoDecimals(n), intl.two.format(n), `formatTwoDecimals(${n})`);
  }
});
