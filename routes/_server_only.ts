/**
 * A list an island renders on the server but does not receive again as props.
 *
 * An island's props travel twice: once rendered into its HTML, once as JSON in `data-props`
 * for hydration (components/Island.tsx). For a long list that the island shows unchanged
 * until the user asks for another page (the leads on /leads, the surveyor directory's rows),
 * the JSON copy is as heavy as the HTML and repeats it. `serverOnly(list)` gives the server
 * render the list and leaves it out of the JSON (`JSON.stringify` skips a value whose
 * `toJSON` answers undefined), so in the browser the prop is undefined and the island keeps
 * the server's markup for that part (`dangerouslySetInnerHTML` with an empty string and
 * `suppressHydrationWarning`: React neither checks nor replaces it) until it loads a page of
 * its own.
 *
 * Island.tsx serialises props with `JSON.stringify`; a first-class "server-only props"
 * option there would say the same thing without this hook.
 */

/** A copy of `list` that renders on the server and is left out of an island's JSON props. */
export function serverOnly<T>(list: readonly T[]): T[] {
  return Object.defineProperty([...list], "toJSON", { value: () => undefined });
}
