// Development only: reload the page when the dev server restarts.
const source = new EventSource("/_dev/reload");
let lost = false;
source.addEventListener("error", () => (lost = true));
source.addEventListener("open", () => lost && location.reload());
