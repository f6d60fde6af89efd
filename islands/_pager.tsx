import { formatInteger } from "../lib/numbers.ts";

/** Previous / "Page N of M" / Next controls shared by the admin tables. */
export function Pager(
  { label, page, pages, isLoading, onPage }: {
    /** Accessible name of the nav, e.g. "Survey pages". */
    label: string;
    page: number;
    pages: number;
    isLoading: boolean;
    onPage: (page: number) => void;
  },
) {
  return (
    <nav className="survey-pager" aria-label={label}>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={page <= 1 || isLoading}
        onClick={() => onPage(Math.min(page - 1, pages))}
      >
        Previous
      </button>
      <span className="survey-pager__info">
        {`Page ${page} of ${formatInteger(pages)}`}
      </span>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={page >= pages || isLoading}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
