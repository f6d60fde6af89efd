/** Placeholder island so the build has an entry; replaced by the accounts work. */
export default function Toaster() {
  return <div className="toaster" aria-live="polite" />;
}
