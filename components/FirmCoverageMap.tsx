/**
 * The coverage map of a public firm profile (/firms/{slug}): the states outline drawn on the
 * server (lib/maps.ts, the same cached paths as UsMap), the firm's office as a house and its
 * service radius as a shaded area, zoomed to that area. No tiles, no key, no JavaScript; the
 * text beside it says the same thing (office town, radius, licensed states).
 */
import { useId } from "react";
import { fitView, MAP_WIDTH, projectPoint } from "../lib/maps.ts";
import { StatesOutline } from "./StatesOutline.tsx";

const EARTH_RADIUS_MILES = 3958.8;
const OFFICE = "M0-9L9-1.5V8H-9V-1.5z";

/**
 * The circle of `radiusMiles` around (lat, lng) as projected points (every 10 degrees of
 * bearing, on the sphere), leaving out the few Albers USA cannot show.
 */
export function radiusRing(lat: number, lng: number, radiusMiles: number): [number, number][] {
  const d = radiusMiles / EARTH_RADIUS_MILES;
  const φ1 = (lat * Math.PI) / 180;
  const λ1 = (lng * Math.PI) / 180;
  const ring: [number, number][] = [];
  for (let bearing = 0; bearing < 360; bearing += 10) {
    const θ = (bearing * Math.PI) / 180;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
    const λ2 = λ1 +
      Math.atan2(
        Math.sin(θ) * Math.sin(d) * Math.cos(φ1),
        Math.cos(d) - Math.sin(φ1) * Math.sin(φ2),
      );
    const xy = projectPoint((φ2 * 180) / Math.PI, (λ2 * 180) / Math.PI);
    if (xy) ring.push(xy);
  }
  return ring;
}

/** The firm's office and service area on the US map (see the file's comment). */
export function FirmCoverageMap({ companyName, lat, lng, radiusMiles, place }: {
  companyName: string;
  lat: number;
  lng: number;
  radiusMiles: number;
  /** "Austin, TX": where the office is, in words. */
  place: string | null;
}) {
  const id = useId();
  const office = projectPoint(lat, lng);
  if (!office) return null;
  const ring = radiusRing(lat, lng, radiusMiles);
  const view = fitView([office, ...ring]);
  const scale = view.width === MAP_WIDTH ? "" : ` scale(${(view.width / MAP_WIDTH).toFixed(3)})`;
  const area = ring.length > 2 ? `M${ring.map(([x, y]) => `${x} ${y}`).join("L")}z` : null;
  const where = place ? ` from its office in ${place}` : "";
  return (
    <figure className="us-map firm-map">
      <svg
        className="us-map__svg"
        viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
        role="img"
        aria-labelledby={`${id}title ${id}desc`}
      >
        <title id={`${id}title`}>{`${companyName}: service area`}</title>
        <desc id={`${id}desc`}>
          {`${companyName} travels up to ${radiusMiles} miles${where}.`}
        </desc>
        <StatesOutline />
        {area ? <path className="firm-map__area" d={area} /> : null}
        <path
          className="us-map__mark us-map__mark--office"
          transform={`translate(${office[0]} ${office[1]})${scale}`}
          d={OFFICE}
        />
      </svg>
      <figcaption className="us-map__caption">
        <p className="muted">
          {`The house marks the office${
            place ? ` in ${place}` : ""
          }; the shaded area is the ${radiusMiles}-mile service radius.`}
        </p>
      </figcaption>
    </figure>
  );
}
