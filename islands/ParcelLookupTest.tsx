import { type FormEvent, useState } from "react";
import { ApiError, errorMessage } from "./_api.ts";
import { NO_SCRIPT_FORM } from "./_fields.tsx";

/** Props of the parcel-data test island. */
export interface ParcelLookupTestProps {
  /** Provider name, e.g. "regrid" or "none". */
  provider: string;
  isConfigured: boolean;
}

interface Parcel {
  parcelNumber: string | null;
  acreage: number | null;
  owner: string | null;
  landUse: string | null;
  address: string | null;
  state?: string | null;
  county?: string | null;
  geometry: { type?: string; coordinates?: unknown } | null;
  source: string;
}

type Outcome =
  | { kind: "parcel"; parcel: Parcel }
  | { kind: "none"; message: string }
  | { kind: "error"; message: string };

type Mode = "address" | "coordinates";

function countPoints(coordinates: unknown): number {
  if (!Array.isArray(coordinates)) return 0;
  if (typeof coordinates[0] === "number") return 1;
  return coordinates.reduce((n: number, c) => n + countPoints(c), 0);
}

/**
 * /regrid-api-test: runs a parcel lookup by address or coordinates through
 * GET /api/parcels/lookup and shows the parcel, "nothing found", or the provider's error.
 */
export default function ParcelLookupTest({ provider, isConfigured }: ParcelLookupTestProps) {
  const [mode, setMode] = useState<Mode>("address");
  const [address, setAddress] = useState("");
  const [lat, setLat] = useState("");
  const [lng, setLng] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  function validate(): URLSearchParams | null {
    if (mode === "address") {
      if (address.trim().length < 3) {
        setError("Enter at least 3 characters of the address");
        return null;
      }
      return new URLSearchParams({ address: address.trim() });
    }
    const la = Number(lat);
    const ln = Number(lng);
    if (lat.trim() === "" || !Number.isFinite(la) || la < -90 || la > 90) {
      setError("Latitude must be a number between -90 and 90");
      return null;
    }
    if (lng.trim() === "" || !Number.isFinite(ln) || ln < -180 || ln > 180) {
      setError("Longitude must be a number between -180 and 180");
      return null;
    }
    return new URLSearchParams({ lat: String(la), lng: String(ln) });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const params = validate();
    if (!params) return;
    setPending(true);
    setOutcome(null);
    try {
      const res = await fetch(`/api/parcels/lookup?${params}`, { credentials: "same-origin" });
      if (!res.ok) {
        throw new ApiError(res.status, await res.text().catch(() => ""), res.statusText);
      }
      const body = await res.json() as { parcel: Parcel | null; message?: string };
      setOutcome(
        body.parcel
          ? { kind: "parcel", parcel: body.parcel }
          : { kind: "none", message: body.message ?? "No parcel was found." },
      );
    } catch (err) {
      setOutcome({ kind: "error", message: errorMessage(err, "The lookup failed. Try again.") });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="parcel-test stack">
      {isConfigured
        ? (
          <div className="alert alert--info">
            <p>
              Provider: <strong>{provider}</strong>. Each lookup is a paid API call.
            </p>
          </div>
        )
        : (
          <div className="alert alert--warning">
            <p>
              No parcel data provider is configured. Set <code>REGRID_API_TOKEN</code>{" "}
              (and optionally <code>REGRID_API_URL</code>) and restart to enable lookups.
            </p>
          </div>
        )}

      <form {...NO_SCRIPT_FORM} className="card" onSubmit={onSubmit} noValidate>
        <div className="card__body stack">
          <fieldset className="parcel-test__mode">
            <legend className="field__label">Look up by</legend>
            <label>
              <input
                type="radio"
                name="mode"
                value="address"
                checked={mode === "address"}
                onChange={() => setMode("address")}
              />{" "}
              Address
            </label>
            <label>
              <input
                type="radio"
                name="mode"
                value="coordinates"
                checked={mode === "coordinates"}
                onChange={() => setMode("coordinates")}
              />{" "}
              Coordinates
            </label>
          </fieldset>

          {mode === "address"
            ? (
              <div className="field">
                <label className="field__label" htmlFor="parcel-address">Address</label>
                <input
                  id="parcel-address"
                  className="field__input"
                  value={address}
                  maxLength={300}
                  autoComplete="off"
                  placeholder="12 Elm St, Asheville, NC 28801"
                  onChange={(e) => setAddress(e.currentTarget.value)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "parcel-error" : undefined}
                />
              </div>
            )
            : (
              <div className="grid-2">
                <div className="field">
                  <label className="field__label" htmlFor="parcel-lat">Latitude</label>
                  <input
                    id="parcel-lat"
                    className="field__input"
                    inputMode="decimal"
                    value={lat}
                    placeholder="35.5951"
                    onChange={(e) => setLat(e.currentTarget.value)}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? "parcel-error" : undefined}
                  />
                </div>
                <div className="field">
                  <label className="field__label" htmlFor="parcel-lng">Longitude</label>
                  <input
                    id="parcel-lng"
                    className="field__input"
                    inputMode="decimal"
                    value={lng}
                    placeholder="-82.5515"
                    onChange={(e) => setLng(e.currentTarget.value)}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? "parcel-error" : undefined}
                  />
                </div>
              </div>
            )}
          {error ? <p className="field__error" id="parcel-error" role="alert">{error}</p> : null}
          <div className="form-actions">
            <button type="submit" className="btn btn--primary" disabled={isPending}>
              {isPending ? "Looking up..." : "Run lookup"}
            </button>
          </div>
        </div>
      </form>

      <div aria-live="polite">
        {outcome?.kind === "error"
          ? (
            <div className="alert alert--error" role="alert">
              <p>
                <strong>Lookup failed.</strong> {outcome.message}
              </p>
            </div>
          )
          : null}
        {outcome?.kind === "none" ? <p className="alert alert--info">{outcome.message}</p> : null}
        {outcome?.kind === "parcel" ? <ParcelResult parcel={outcome.parcel} /> : null}
      </div>
    </div>
  );
}

function ParcelResult({ parcel }: { parcel: Parcel }) {
  const rows: [string, string][] = [
    ["Parcel number", parcel.parcelNumber ?? "—"],
    ["Acreage", parcel.acreage === null ? "—" : `${parcel.acreage} acres`],
    ["Owner", parcel.owner ?? "—"],
    ["Land use", parcel.landUse ?? "—"],
    ["Address", parcel.address ?? "—"],
    ["County / state", [parcel.county, parcel.state].filter(Boolean).join(", ") || "—"],
    [
      "Geometry",
      parcel.geometry
        ? `${parcel.geometry.type ?? "Unknown"} with ${
          countPoints(parcel.geometry.coordinates)
        } points`
        : "None",
    ],
    ["Source", parcel.source],
  ];
  return (
    <section className="card" aria-labelledby="parcel-result">
      <div className="card__header">
        <h2 id="parcel-result">Parcel found</h2>
      </div>
      <div className="card__body">
        <dl className="parcel-test__result">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
        <details>
          <summary>Raw response</summary>
          <pre className="parcel-test__raw">{JSON.stringify(parcel, null, 2)}</pre>
        </details>
      </div>
    </section>
  );
}
