import { describe, expect, it } from 'vitest';
import { TextArena } from '../src/log/text-arena.js';

describe('TextArena', () => {
  it('answers every slot as last put, through appends, clears and compactions, any text included', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'Z', '0', '\u0000', 'é', 'ÿ', '漢', '\ud800', '😀', ' '];
    const slots = 50;
    const arena = new TextArena(slots);
    const model = new Map<number, string>();
    for (let step = 0; step < 20_000; step++) {
      const at = random(slots);
      if (random(5) === 0) {
        arena.clear(at);
        model.delete(at);
      } else {
        // Mostly Latin-1 texts of up to 3,000 characters (the arena starts at 64 KiB: many compactions).
        const length = random(4) === 0 ? random(3000) : random(60);
        let text = '';
        for (let i = 0; i < length; i++) text += alphabet[random(random(8) === 0 ? alphabet.length : 6)];
        arena.put(at, text);
        model.set(at, text);
      }
      if (step % 997 === 0) for (let slot = 0; slot < slots; slot++) expect(arena.get(slot)).toBe(model.get(slot));
    }
    for (let slot = 0; slot < slots; slot++) {
      expect(arena.get(slot)).toBe(model.get(slot));
      expect(arena.has(slot)).toBe(model.has(slot));
    }
  });
});
