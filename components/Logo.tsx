/** The Meridian wordmark with its survey-marker glyph. */
export function Logo() {
  return (
    <span className="logo">
      <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true">
        <circle cx="14" cy="14" r="12" fill="none" stroke="currentColor" strokeWidth="2.5" />
        <path d="M14 4v20M4 14h20" stroke="currentColor" strokeWidth="2" />
        <circle cx="14" cy="14" r="3.5" fill="var(--color-accent)" />
      </svg>
      <span className="logo__text">Meridian</span>
    </span>
  );
}
