/**
 * The itemised quote: every line the pricing engine produced, the subtotal, the discount and
 * the total. Pure markup, shared by the request flow (browser) and the dashboard and survey
 * pages (server), so a client sees the same breakdown before and after submitting.
 */
import type { Quote } from "../../lib/pricing.ts";
import { formatMoney } from "./details.ts";

/** Props of the breakdown table. */
export interface QuoteBreakdownProps {
  quote: Quote;
  /** Caption read by screen readers and shown above the table. */
  caption?: string;
}

/** The quote's line items as a table, ending with the total. */
export function QuoteBreakdown({ quote, caption = "Price breakdown" }: QuoteBreakdownProps) {
  if (quote.quoteRequired || quote.totalCents === null) {
    return (
      <p className="cs-breakdown__note">
        Subdivision surveys are priced by a licensed surveyor after reviewing the parcel and the
        number of lots. Submit the request and you will receive a written quote.
      </p>
    );
  }
  return (
    <table className="cs-breakdown">
      <caption className="cs-breakdown__caption">{caption}</caption>
      <thead className="visually-hidden">
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody>
        {quote.lineItems.map((line) => (
          <tr key={line.key}>
            <th scope="row">
              <span className="cs-breakdown__label">{line.label}</span>
              {line.detail ? <span className="cs-breakdown__detail">{line.detail}</span> : null}
            </th>
            <td>{formatMoney(line.amountCents)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {quote.discount
          ? (
            <>
              <tr className="cs-breakdown__subtotal">
                <th scope="row">Subtotal</th>
                <td>{formatMoney(quote.subtotalCents)}</td>
              </tr>
              <tr className="cs-breakdown__discount">
                <th scope="row">
                  Discount <span className="cs-breakdown__code">{quote.discount.code}</span>
                  <span className="cs-breakdown__detail">
                    {quote.discount.kind === "percent"
                      ? `${quote.discount.value}% off`
                      : `${formatMoney(quote.discount.value)} off`}
                  </span>
                </th>
                <td>−{formatMoney(quote.discount.amountCents)}</td>
              </tr>
            </>
          )
          : null}
        <tr className="cs-breakdown__total">
          <th scope="row">Total</th>
          <td>{formatMoney(quote.totalCents)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
