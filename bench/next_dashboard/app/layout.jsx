// The document: components/render.tsx's <head> for a noindex signed-in page, through Next's
// metadata API (Next always writes the charset and viewport tags itself), and the stylesheet
// Meridian's pages link (MERIDIAN_CSS, passed by the bench).
const DESCRIPTION =
  "Instant, free quotes for boundary, topographic, ALTA, elevation certificate, construction and subdivision surveys from licensed land surveyors near you.";

export const metadata = {
  description: DESCRIPTION,
  icons: { icon: { url: "/static/favicon.svg", type: "image/svg+xml" } },
  robots: "noindex",
};
export const viewport = { themeColor: "#0f4c5c" };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <head>
        <link rel="stylesheet" href={process.env.MERIDIAN_CSS} />
      </head>
      <body className="app">{children}</body>
    </html>
  );
}
