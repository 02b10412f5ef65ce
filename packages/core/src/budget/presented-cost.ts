/**
 * What presenting and serializing one resource costs, in values (see `maxRequestWork`): 1, plus
 * each element of its multi-valued attributes, top-level or in an extension. Reads only array
 * lengths: the projection and the serialization it stands for are proportional to them.
 */
export function presentedCost(resource: Readonly<Record<string, unknown>>): number {
  let cost = 1;
  for (const key of Object.keys(resource)) {
    const value = resource[key];
    if (Array.isArray(value)) cost += value.length;
    else if (typeof value === 'object' && value !== null) {
      for (const inner of Object.values(value)) if (Array.isArray(inner)) cost += inner.length;
    }
  }
  return cost;
}
