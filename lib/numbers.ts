/**
 * Number formatting shared by pages, islands and emails. `toLocaleString` builds a new
 * Intl.NumberFormat on every call (~58 µs each; it was the top function in the signed-in page
 * profile, bench/signed_in_pages.ts), so the formatters are built once here and reused
 * (~1.6 µs a call), and each remembers its recent answers: a page formats the same prices and
 * distances again and again, and a lookup is ~20 times cheaper than `format` (number formatting
 * was 2–4% of /leads and the client dashboard in bench/signed_in_pages.ts profiles).
 * Browser-safe: no Deno APIs.
 */

/** Answers kept per formatter; beyond that the memory is cleared and starts again. */
const REMEMBERED = 2000;

/** `format` of `options`, remembering its answers by number (a number's text never changes). */
function formatter(options: Intl.NumberFormatOptions): (n: number) => string {
  const format = new Intl.NumberFormat("en-US", options);
  const answers = new Map<number, string>();
  return (n) => {
    // A Map holds 0 and -0 as one key, and Intl writes "-0": zeros are not remembered.
    if (n === 0) return format.format(n);
    let text = answers.get(n);
    if (text === undefined) {
      text = format.format(n);
      if (answers.size >= REMEMBERED) answers.clear();
      answers.set(n, text);
    }
    return text;
  };
}

const INTEGER = formatter({ maximumFractionDigits: 0 });
const UP_TO_ONE_DECIMAL = formatter({ maximumFractionDigits: 1 });
const UP_TO_TWO_DECIMALS = formatter({ maximumFractionDigits: 2 });
const TWO_DECIMALS = formatter({ minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `n` rounded to a whole number with thousands separators: "12,345". */
export function formatInteger(n: number): string {
  return INTEGER(n);
}

/** `n` with at most one decimal and thousands separators: "1,234.5", "12". */
export function formatOneDecimal(n: number): string {
  return UP_TO_ONE_DECIMAL(n);
}

/** `n` with at most two decimals and thousands separators: "1,234.5". */
export function formatDecimal(n: number): string {
  return UP_TO_TWO_DECIMALS(n);
}

/** `n` with exactly two decimals and thousands separators: "38.50". */
export function formatTwoDecimals(n: number): string {
  return TWO_DECIMALS(n);
}
