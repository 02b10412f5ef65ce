/** How many statement texts a namer counts before it stops watching new ones (filters make texts without end). */
const WATCHED = 2_000;

/**
 * Names for the statements of one PostgreSQL pool that repeat, so that pg prepares each once per
 * connection (a named statement: parsed and planned once, then only bound and executed): a text
 * with parameters is named the second time it is sent, up to `max` names; the rest stay unnamed. Every
 * text of one store shape is the same (its values are parameters), so the few shapes of the common
 * requests are what gets named. One namer per pool, none shared between pools.
 */
export function statementNamer(max: number): (text: string, parameters: readonly unknown[]) => string | undefined {
  const seen = new Map<string, string | undefined>();
  let named = 0;
  return (text, parameters) => {
    if (max <= 0 || parameters.length === 0) return undefined;
    const known = seen.get(text);
    if (known !== undefined) return known;
    if (!seen.has(text)) {
      if (seen.size < WATCHED) seen.set(text, undefined);
      return undefined;
    }
    if (named >= max) return undefined;
    const name = `scimkit_${++named}`;
    seen.set(text, name);
    return name;
  };
}
