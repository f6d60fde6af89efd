/**
 * `compute`, remembering its recent answers by argument: for formatting that depends on the
 * value alone (a date's text in a fixed time zone), which a page repeats and `Intl` makes
 * costly (~2 µs a call against ~0.1 µs for a lookup, bench/messages_page.ts). At most `max`
 * answers are kept; when full the memory is emptied and starts again. Browser-safe.
 */
export function remembered<K, V>(compute: (key: K) => V, max = 1000): (key: K) => V {
  const answers = new Map<K, V>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined && !answers.has(key)) {
      answer = compute(key);
      if (answers.size >= max) answers.clear();
      answers.set(key, answer);
    }
    return answer as V;
  };
}
