import { describe, expect, it } from 'vitest';
import { isValidHashtag } from '../../lib/sdk';

describe('a hashtag', () => {
  it('may hold letters, digits, dots and underscores', () => {
    expect(isValidHashtag('summer')).toBe(true);
    expect(isValidHashtag('summer_2024')).toBe(true);
    expect(isValidHashtag('v1.2')).toBe(true);
    expect(isValidHashtag('_x_')).toBe(true);
  });

  it('may use letters of any script, such as Czech ones', () => {
    expect(isValidHashtag('léto')).toBe(true);
    expect(isValidHashtag('čeština')).toBe(true);
    expect(isValidHashtag('ŽLUŤOUČKÝ')).toBe(true);
  });

  it('needs at least one letter', () => {
    expect(isValidHashtag('2024')).toBe(false);
    expect(isValidHashtag('._.')).toBe(false);
    expect(isValidHashtag('2024a')).toBe(true);
  });

  it('is at most 64 characters, counted as characters rather than bytes', () => {
    expect(isValidHashtag('a'.repeat(64))).toBe(true);
    expect(isValidHashtag('a'.repeat(65))).toBe(false);
    expect(isValidHashtag('č'.repeat(64))).toBe(true);
    expect(isValidHashtag('𝒜'.repeat(64))).toBe(true);
  });

  it('counts a letter typed with a combining accent as one letter', () => {
    const decomposed = 'c\u030c'.repeat(64); // č as c + combining caron
    expect(isValidHashtag(decomposed)).toBe(true);
  });

  it('is not empty and holds no spaces, hyphens, hashes or emoji', () => {
    expect(isValidHashtag('')).toBe(false);
    expect(isValidHashtag('two words')).toBe(false);
    expect(isValidHashtag('well-known')).toBe(false);
    expect(isValidHashtag('#tag')).toBe(false);
    expect(isValidHashtag('fun🎉')).toBe(false);
  });
});
