/**
 * The address autocomplete's behaviour constants (spec section 9), shared by the island, the
 * API validation and the tests so each number is written once.
 */
export const ADDRESS_AUTOCOMPLETE = {
  /** Suggestions are requested only from this many (trimmed) characters. */
  minChars: 3,
  /** Wait this long after the last keystroke before asking for suggestions. */
  debounceMs: 300,
  /** Browser geolocation gives up after this long; the coordinates are optional. */
  geolocationTimeoutMs: 2000,
  /** On blur the list closes after this delay, so a click on an option still lands. */
  blurCloseDelayMs: 150,
  /** CSS max-height of the suggestion list. */
  listMaxHeight: "15rem",
  /** Longest input the API accepts (characters, after trimming). */
  maxInputLength: 200,
  /** Longest placeId the API accepts. */
  maxPlaceIdLength: 512,
  /** Most suggestions returned. */
  maxPredictions: 5,
} as const;
