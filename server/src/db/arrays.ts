/**
 * A Postgres array literal (`{1,2,NULL}`, `{"a","b \"c\""}`), sent as ONE parameter however many
 * values it holds and cast in the statement (`${pgArray(ids)}::int[]`): the set-based statements
 * of a batch take their rows as `unnest` of such arrays, whatever the driver.
 */
export function pgArray(values: readonly (string | number | null | undefined)[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error(`Not a number for an array: ${value}`);
      return String(value);
    }
    return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}
