/**
 * The one responsive table pattern for lists (admin users, survey requests, surveyors, pricing):
 * a table inside its own scroll region, so a wide table scrolls inside the region and never
 * the page. Tables with the `table--cards` class turn each row into a card on phones, each
 * cell labelled by its `data-label` (see base.css "Tables"). Plain markup, so server pages and
 * islands share it.
 */
import type { ReactNode } from "react";

/** Props of `TableRegion`. */
export interface TableRegionProps {
  /**
   * What the table lists ("Users"): the region is named "Users table", which keeps it distinct
   * from a section of the page named after the same list (axe `landmark-unique`).
   */
  label: string;
  className?: string;
  children: ReactNode;
}

/**
 * The table's scroll region: a labelled region in the tab order, so keyboard users can scroll
 * a table that is wider than the screen (axe `scrollable-region-focusable`).
 */
export function TableRegion({ label, className, children }: TableRegionProps) {
  return (
    <div
      className={className ? `table-wrap ${className}` : "table-wrap"}
      role="region"
      aria-label={`${label} table`}
      tabIndex={0}
    >
      {children}
    </div>
  );
}
