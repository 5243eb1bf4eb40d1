/**
 * Up to two letters from the first and last word: "Lucy Rivers" → "LR", "marek.novak" → "M".
 * What an avatar without a picture shows, in the React components and the widgets' first views.
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (!first) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  // Array.from keeps letters outside the basic plane (and most emoji) whole.
  const letter = (word: string) => Array.from(word)[0] ?? '';
  return (letter(first) + (last ? letter(last) : '')).toLocaleUpperCase();
}
