/** A breadcrumb trail; the last item is the current page and is not a link. */
export function Breadcrumbs({ items }: { items: { href?: string; label: string }[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol role="list">
        {items.map((item, i) => (
          <li key={item.label}>
            {item.href && i < items.length - 1
              ? <a href={item.href}>{item.label}</a>
              : <span aria-current="page">{item.label}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
