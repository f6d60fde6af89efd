/**
 * The states outline under a server-drawn map (components/UsMap.tsx, FirmCoverageMap.tsx).
 *
 * A page rendered through `renderPage` knows the build's outline file (lib/maps.ts
 * `statesSprite`, written by dev.ts with a content-hashed name and served immutable): the map
 * refers to it with two `<use>` elements, so the ~25 KB of path data is downloaded once and
 * cached by the browser instead of being sent in every map page. Rendered without that file
 * (a build from before it existed, or a component rendered on its own), the paths are inline,
 * as before; either way the map looks the same.
 */
import { createContext, useContext } from "react";
import { statesPaths } from "../lib/maps.ts";

/** URL of the built outline file, provided by `renderPage`; undefined draws the paths inline. */
export const MapOutlineContext = createContext<string | undefined>(undefined);

/** The land (filled) and the borders between states (stroked), as `<use>` or inline paths. */
export function StatesOutline() {
  const href = useContext(MapOutlineContext);
  if (href) {
    return (
      <>
        <use className="us-map__land" href={`${href}#land`} />
        <use className="us-map__borders" href={`${href}#borders`} />
      </>
    );
  }
  const { land, borders } = statesPaths();
  return (
    <>
      <path className="us-map__land" d={land} />
      <path className="us-map__borders" d={borders} />
    </>
  );
}
