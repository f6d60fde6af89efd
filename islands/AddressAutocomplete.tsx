import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { ADDRESS_AUTOCOMPLETE } from "../lib/geo/constants.ts";
import { asPrecision, type GeocodePrecision } from "../lib/geo/provider.ts";

export { ADDRESS_AUTOCOMPLETE };

/**
 * Shown when typed text (long enough to ask) has no suggestion: the offline data completes
 * only a town or ZIP the user typed, so a street alone needs one of them.
 */
export const NO_SUGGESTION_HINT = "No suggestions: add the town and state, or the ZIP code.";

/** One suggestion as the API returns it. */
export interface AddressPrediction {
  description: string;
  placeId: string;
}

/**
 * A picked suggestion; coordinates, the formatted address and how exactly they locate the
 * property (the building, or only its ZIP or town) arrive once it is geocoded.
 */
export interface AddressSelection extends AddressPrediction {
  formattedAddress?: string;
  lat?: number;
  lng?: number;
  precision?: GeocodePrecision;
}

/** Props of the address field. Callbacks are for use from other islands only (not JSON). */
export interface AddressAutocompleteProps {
  /** The input's id; the list and options derive theirs from it. Unique per page. */
  id: string;
  /** Form field name (the no-JS form submits it). */
  name?: string;
  label: string;
  placeholder?: string;
  required?: boolean;
  /** Browser validation of the plain-HTML form (before hydration, or without JavaScript). */
  pattern?: string;
  /** What the browser adds to its message when `pattern` refuses the text. */
  title?: string;
  defaultValue?: string;
  /** Set by a parent form that found the value invalid. */
  invalid?: boolean;
  /** id of an element describing the field (e.g. the parent's error message). */
  describedBy?: string;
  /** The text as the user types it; a pick made earlier no longer applies. */
  onChange?: (text: string) => void;
  /**
   * A suggestion was picked: called at once with description and placeId, then again with
   * formattedAddress, lat and lng when geocoding succeeds.
   */
  onSelect?: (result: AddressSelection) => void;
}

type Coords = { lat: number; lng: number };

function isPrediction(value: unknown): value is AddressPrediction {
  const p = value as AddressPrediction;
  return typeof p?.description === "string" && typeof p?.placeId === "string";
}

/** The suggestions for `input`; any failure is an empty list (the spec says failures are silent). */
async function fetchPredictions(
  input: string,
  coords: Coords | undefined,
  signal: AbortSignal,
): Promise<AddressPrediction[]> {
  const params = new URLSearchParams({ input });
  if (coords) {
    params.set("lat", String(coords.lat));
    params.set("lng", String(coords.lng));
  }
  const res = await fetch(`/api/address-suggestions?${params}`, {
    signal,
    headers: { accept: "application/json" },
  });
  if (!res.ok) return [];
  const body = await res.json().catch(() => null);
  const list = Array.isArray(body?.predictions) ? body.predictions : [];
  return list.filter(isPrediction).map(({ description, placeId }: AddressPrediction) => ({
    description,
    placeId,
  }));
}

async function fetchGeocode(
  placeId: string,
  signal: AbortSignal,
): Promise<
  { formattedAddress: string; lat: number; lng: number; precision: GeocodePrecision } | undefined
> {
  const res = await fetch(`/api/geocode?${new URLSearchParams({ placeId })}`, {
    signal,
    headers: { accept: "application/json" },
  });
  if (!res.ok) return undefined;
  const body = await res.json().catch(() => null);
  if (
    typeof body?.formattedAddress !== "string" || typeof body?.lat !== "number" ||
    typeof body?.lng !== "number"
  ) return undefined;
  return {
    formattedAddress: body.formattedAddress,
    lat: body.lat,
    lng: body.lng,
    // Without a precision nothing says the point is the property: take it as the town's.
    precision: asPrecision(body.precision) ?? "city",
  };
}

function PinIcon() {
  return (
    <svg
      className="address-suggestions__icon"
      viewBox="0 0 24 24"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path
        fill="currentColor"
        d="M12 2a7 7 0 0 0-7 7c0 5.25 7 13 7 13s7-7.75 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z"
      />
    </svg>
  );
}

/**
 * Property address input with suggestions, following the WAI-ARIA combobox pattern: the input
 * owns a listbox it points to with aria-activedescendant, so focus never leaves the input.
 * An island on its own and a component other islands embed.
 */
export default function AddressAutocomplete(props: AddressAutocompleteProps) {
  const { id, name, label, placeholder, required, pattern, title, defaultValue } = props;
  const { invalid, describedBy } = props;
  const [value, setValue] = useState(defaultValue ?? "");
  const [predictions, setPredictions] = useState<AddressPrediction[]>([]);
  const [isOpen, setIsOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [hasNoMatch, setNoMatch] = useState(false);

  const callbacks = useRef(props);
  callbacks.current = props;
  const debounceTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const blurTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const suggestRequest = useRef<AbortController>(undefined);
  const geocodeRequest = useRef<AbortController>(undefined);
  const coords = useRef<Coords>(undefined);
  const hasAskedLocation = useRef(false);

  useEffect(() => () => {
    clearTimeout(debounceTimer.current);
    clearTimeout(blurTimer.current);
    suggestRequest.current?.abort();
    geocodeRequest.current?.abort();
  }, []);

  // Arrow keys may move past the visible part of a scrolled list.
  useEffect(() => {
    if (active < 0) return;
    document.getElementById(`${id}-option-${active}`)?.scrollIntoView?.({ block: "nearest" });
  }, [active, id]);

  const listId = `${id}-listbox`;
  const optionId = (i: number) => `${id}-option-${i}`;
  const isExpanded = isOpen && predictions.length > 0;

  function close() {
    setIsOpen(false);
    setActive(-1);
  }

  /** Ask once, on first focus; denial, absence or a slow answer simply means no bias. */
  function askLocationOnce() {
    if (hasAskedLocation.current) return;
    hasAskedLocation.current = true;
    try {
      navigator.geolocation?.getCurrentPosition(
        (pos) => {
          coords.current = { lat: pos.coords.latitude, lng: pos.coords.longitude };
        },
        () => {},
        {
          timeout: ADDRESS_AUTOCOMPLETE.geolocationTimeoutMs,
          maximumAge: 10 * 60 * 1000,
        },
      );
    } catch {
      // Some embedded browsers throw instead of calling the error callback.
    }
  }

  /** Only the newest request may update the list: older ones are aborted and ignored. */
  async function loadSuggestions(text: string) {
    suggestRequest.current?.abort();
    const controller = new AbortController();
    suggestRequest.current = controller;
    let list: AddressPrediction[] = [];
    try {
      list = await fetchPredictions(text, coords.current, controller.signal);
    } catch {
      list = [];
    }
    if (suggestRequest.current !== controller || controller.signal.aborted) return;
    setPredictions(list);
    setActive(-1);
    setIsOpen(list.length > 0);
    setNoMatch(list.length === 0);
  }

  function handleInput(text: string) {
    setValue(text);
    setNoMatch(false);
    callbacks.current.onChange?.(text);
    geocodeRequest.current?.abort();
    clearTimeout(debounceTimer.current);
    if (text.trim().length < ADDRESS_AUTOCOMPLETE.minChars) {
      suggestRequest.current?.abort();
      suggestRequest.current = undefined;
      setPredictions([]);
      close();
      return;
    }
    debounceTimer.current = setTimeout(
      () => loadSuggestions(text.trim()),
      ADDRESS_AUTOCOMPLETE.debounceMs,
    );
  }

  async function pick(prediction: AddressPrediction) {
    clearTimeout(debounceTimer.current);
    suggestRequest.current?.abort();
    suggestRequest.current = undefined;
    setValue(prediction.description);
    setNoMatch(false);
    close();
    callbacks.current.onSelect?.({ ...prediction });

    geocodeRequest.current?.abort();
    const controller = new AbortController();
    geocodeRequest.current = controller;
    let place;
    try {
      place = await fetchGeocode(prediction.placeId, controller.signal);
    } catch {
      place = undefined;
    }
    // Typing or another pick since then makes this answer stale.
    if (geocodeRequest.current !== controller || controller.signal.aborted || !place) return;
    setValue(place.formattedAddress);
    callbacks.current.onSelect?.({ ...prediction, ...place });
  }

  function handleKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const count = predictions.length;
    switch (e.key) {
      case "ArrowDown":
        if (!count) return;
        e.preventDefault();
        if (!isOpen) {
          setIsOpen(true);
          setActive(0);
        } else setActive((i) => (i + 1) % count);
        return;
      case "ArrowUp":
        if (!count) return;
        e.preventDefault();
        if (!isOpen) {
          setIsOpen(true);
          setActive(count - 1);
        } else setActive((i) => (i <= 0 ? count - 1 : i - 1));
        return;
      case "Enter":
        // With an option active, Enter picks it instead of submitting the form.
        if (isExpanded && active >= 0 && active < count) {
          e.preventDefault();
          pick(predictions[active]);
        }
        return;
      case "Escape":
        if (isExpanded) {
          e.preventDefault();
          close();
        }
        return;
    }
  }

  return (
    <div className="field address-field">
      <label className="field__label" htmlFor={id}>{label}</label>
      <div className="address-combobox">
        <input
          id={id}
          name={name}
          className="field__input address-combobox__input"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={isExpanded}
          aria-controls={listId}
          aria-activedescendant={isExpanded && active >= 0 ? optionId(active) : undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoComplete="off"
          autoCapitalize="words"
          spellCheck={false}
          placeholder={placeholder}
          required={required}
          pattern={pattern}
          title={title}
          maxLength={ADDRESS_AUTOCOMPLETE.maxInputLength}
          value={value}
          onChange={(e) => handleInput(e.currentTarget.value)}
          onKeyDown={handleKeyDown}
          onFocus={() => {
            clearTimeout(blurTimer.current);
            askLocationOnce();
          }}
          onBlur={() => {
            clearTimeout(blurTimer.current);
            blurTimer.current = setTimeout(close, ADDRESS_AUTOCOMPLETE.blurCloseDelayMs);
          }}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={`${label} suggestions`}
          className="address-suggestions"
          style={{ maxHeight: ADDRESS_AUTOCOMPLETE.listMaxHeight }}
          hidden={!isExpanded}
        >
          {isExpanded && predictions.map((p, i) => (
            <li
              key={`${i}:${p.placeId}`}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className="address-suggestions__option"
              // Keep focus in the input so its blur does not close the list before the click.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(p)}
              onMouseMove={() => i !== active && setActive(i)}
            >
              <PinIcon />
              <span>{p.description}</span>
            </li>
          ))}
        </ul>
      </div>
      {hasNoMatch ? <p className="field__hint address-field__hint">{NO_SUGGESTION_HINT}</p> : null}
      <div className="visually-hidden" role="status" aria-live="polite">
        {isExpanded
          ? `${predictions.length} suggestion${predictions.length === 1 ? "" : "s"} available.`
          : hasNoMatch
          ? NO_SUGGESTION_HINT
          : ""}
      </div>
    </div>
  );
}
