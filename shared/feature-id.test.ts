import { describe, expect, it } from 'vitest';
import { featureIdFor } from './feature-id';

describe('featureIdFor', () => {
  it('joins the title words, lowercase, after F-', () => {
    expect(featureIdFor('Gift cards at checkout')).toBe('F-gift-cards-at-checkout');
  });

  it('drops punctuation and accents', () => {
    expect(featureIdFor('  Café: pay   by QR-code! ')).toBe('F-cafe-pay-by-qr-code');
  });

  it('keeps whole words while they fit in 40 characters', () => {
    expect(featureIdFor('Customers can reserve stock for orders placed through the partner portal')).toBe('F-customers-can-reserve-stock-for-orders');
    // A word that does not fit is skipped; a shorter one after it still may.
    expect(featureIdFor('Supercalifragilisticexpialidocious-and-then-some-more-words x')).toBe('F-supercalifragilisticexpialidocious-and-x');
  });

  it('falls back to F-feature when the title has no letters or digits', () => {
    expect(featureIdFor('')).toBe('F-feature');
    expect(featureIdFor('¿¡…!?')).toBe('F-feature');
  });
});
